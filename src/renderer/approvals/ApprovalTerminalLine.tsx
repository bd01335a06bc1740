import type { PendingApproval } from '../../shared/ipc/domains/approvals'

/**
 * A terminal run (issue 23.2): allowing it lets the agent type into it for as long as it runs, and
 * when it starts a shell or an interpreter, what the agent types there is code nobody checks.
 */
export function ApprovalTerminalLine({ terminal }: { terminal: PendingApproval['terminal'] }) {
  if (!terminal) return null
  return (
    <div className="approval-terminal" data-field="terminal" role="note">
      <p>
        <strong>Interactive.</strong> {terminal.note}
      </p>
      {terminal.interpreter && (
        <p className="warning" data-field="terminal-interpreter">
          The agent will be typing into <code>{terminal.interpreter}</code>.
        </p>
      )}
    </div>
  )
}
