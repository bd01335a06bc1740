import type { PendingApproval } from '../../shared/ipc/domains/approvals'

const PROFILE_WORDS = {
  'read-only': 'read-only (no writes, no network)',
  'workspace-write': 'workspace-write (writes only in the workspace; secrets hidden)',
  off: 'no sandbox',
  'agent-shell': "the agent's own shell, unsandboxed",
} as const

/** Which sandbox the command will run in once allowed, and the one-off way out of it. */
export function ApprovalSandboxLine({
  sandbox,
  busy,
  onRunUnsandboxed,
}: {
  sandbox: PendingApproval['sandbox']
  busy: boolean
  onRunUnsandboxed: () => void
}) {
  if (!sandbox) return null
  return (
    <div className="approval-sandbox" data-field="sandbox">
      <p>
        Runs in: <strong data-field="sandbox-profile">{PROFILE_WORDS[sandbox.profile]}</strong>
      </p>
      {sandbox.note && <p role="alert">{sandbox.note}</p>}
      {sandbox.unsandboxedAllowed && sandbox.profile !== 'off' && (
        <button type="button" className="danger" disabled={busy} onClick={onRunUnsandboxed}>
          Allow once, unsandboxed
        </button>
      )}
    </div>
  )
}
