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
import { ConversationFacts } from '../session/ConversationFacts'
import { ConversationList } from '../session/ConversationList'
import { useSessions } from '../session/SessionsProvider'
import { WorkspaceChooser } from '../workspace/WorkspaceChooser'
import { useWorkspace } from '../workspace/WorkspaceProvider'

/**
 * Conversations: the list first (every agent run and the person's own), then the selected one's
 * timeline, with the command box only in the person's own conversation.
 */
export function SessionScreen() {
  const { sessions, selected, error, create } = useSessions()
  const { pending, allowed } = usePendingApprovals()
  const [createError, setCreateError] = useState<string>()
  const heading = useRef<HTMLHeadingElement>(null)
  const workspace = useWorkspace()
  const choosing = workspace.loaded && workspace.current === null
  useJustAllowedKeys()
  // The selected conversation's inline cards, oldest first: the keys answer these here.
  const ids = oldestFirst(pending?.filter((approval) => approval.sessionId === selected?.id) ?? []).map(
    (approval) => approval.id,
  )
  // After the last card, the focus goes to the call just allowed (its card has Stop and Ctrl+B).
  const fallbackFocus = () =>
    (allowed && document.querySelector<HTMLElement>(`[data-call-id="${CSS.escape(allowed.callId)}"]`)) ||
    heading.current
  const start = () => create().catch((failure: unknown) => setCreateError(errorMessage(failure)))
  const mine = sessions?.some((session) => session.origin === 'person' && session.endedAt === null)
  return (
    <ApprovalKeysScope orderedIds={ids} fallbackFocus={fallbackFocus}>
      <section className="screen" aria-labelledby="session-title">
        <h1 id="session-title" ref={heading} tabIndex={-1}>
          Conversations
        </h1>
        {error && <p role="alert">Could not load conversations: {error}</p>}
        {workspace.error && <p role="alert">Could not reach Shellgate: {workspace.error}</p>}
        {choosing && <WorkspaceChooser />}
        {sessions && sessions.length > 0 && <ConversationList />}
        {sessions && !mine && !choosing && workspace.loaded && (
          <EmptyState title="No conversation of your own">
            Agents' conversations appear here as they connect. Run commands yourself, in your own shell and
            history, in a conversation of your own.{' '}
            <button type="button" className="primary" onClick={start}>
              Start a session
            </button>
          </EmptyState>
        )}
        <FormError message={createError} />
        {selected && (
          <section className="conversation-detail" aria-label={`Conversation ${selected.title}`}>
            <ConversationFacts session={selected} />
            {selected.origin === 'person' && <CommandForm key={selected.id} sessionId={selected.id} />}
            <CallHistory sessionId={selected.id} />
          </section>
        )}
      </section>
    </ApprovalKeysScope>
  )
}
