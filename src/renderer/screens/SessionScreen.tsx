import { useRef, useState } from 'react'
import { ApprovalKeysScope } from '../approvals/ApprovalKeys'
import { oldestFirst } from '../approvals/approval-key-policy'
import { useJustAllowedKeys } from '../approvals/JustAllowed'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { EmptyState } from '../components/EmptyState'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { CallHistory } from '../session/CallHistory'
import { CommandForm } from '../session/CommandForm'
import { SessionTabs } from '../session/SessionTabs'
import { useSessions } from '../session/SessionsProvider'

export function SessionScreen() {
  const { sessions, selected, error, create } = useSessions()
  const { pending, allowed } = usePendingApprovals()
  const [createError, setCreateError] = useState<string>()
  const heading = useRef<HTMLHeadingElement>(null)
  useJustAllowedKeys()
  // The selected conversation's inline cards, oldest first: the keys answer these here.
  const ids = oldestFirst(pending?.filter((approval) => approval.sessionId === selected?.id) ?? []).map(
    (approval) => approval.id,
  )
  // After the last card, the focus goes to the call just allowed (its card has Stop and Ctrl+B).
  const fallbackFocus = () =>
    (allowed && document.querySelector<HTMLElement>(`[data-call-id="${CSS.escape(allowed.callId)}"]`)) ||
    heading.current
  return (
    <ApprovalKeysScope orderedIds={ids} fallbackFocus={fallbackFocus}>
      <section className="screen" aria-labelledby="session-title">
        <h1 id="session-title" ref={heading} tabIndex={-1}>
          Session
        </h1>
        {error && <p role="alert">Could not load sessions: {error}</p>}
        {sessions && <SessionTabs />}
        {sessions?.length === 0 && (
          <EmptyState title="No session is open">
            A session is one agent conversation in this workspace, with its own shell and history.{' '}
            <button
              type="button"
              className="primary"
              onClick={() => create().catch((failure: unknown) => setCreateError(errorMessage(failure)))}
            >
              Start a session
            </button>
          </EmptyState>
        )}
        <FormError message={createError} />
        {selected && (
          <>
            <dl className="inline-facts session-facts">
              <dt>Workspace</dt>
              <dd data-field="workspace">
                <code>{selected.workspace}</code>
              </dd>
              <dt>Shell</dt>
              <dd data-field="shell">
                {selected.shell.name}
                {selected.shell.path && (
                  <>
                    {' '}
                    <code>{selected.shell.path}</code>
                  </>
                )}
              </dd>
            </dl>
            {selected.shell.reminder && <p className="muted">{selected.shell.reminder}</p>}
            {(selected.shell.restore === 'fallback' || selected.shell.restore === 'stale') && (
              <p className="call-notice" role="status">
                {selected.shell.restore === 'fallback'
                  ? 'The shell this session started with is gone; it now uses the one above.'
                  : 'The shell this session started with is gone and no other shell was found: commands will fail to start until one is installed or chosen in Settings → Shell.'}
              </p>
            )}
            <CommandForm key={selected.id} sessionId={selected.id} />
            <CallHistory sessionId={selected.id} />
          </>
        )}
      </section>
    </ApprovalKeysScope>
  )
}
