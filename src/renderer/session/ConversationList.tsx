import { useState } from 'react'
import type { Session } from '../../shared/ipc/domains/sessions'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { useTasks } from '../tasks/TasksProvider'
import { CloseSessionConfirm } from './CloseSessionConfirm'
import { closeConsequences } from './close-consequences'
import {
  channelWords,
  conversationWho,
  groupConversations,
  startedWords,
  workspaceName,
} from './conversation-groups'
import { useSessions } from './SessionsProvider'

/**
 * Every conversation, the person's own among the agents' runs: those waiting for the person on
 * top, then the open ones, the ended runs folded away. Each says who (agent and full version),
 * where, when it started and how its calls arrive, so two never look alike.
 */
export function ConversationList() {
  const { sessions, selected, select, create, close } = useSessions()
  const { pending } = usePendingApprovals()
  const { tasks } = useTasks()
  const [error, setError] = useState<string>()
  const [confirming, setConfirming] = useState<string | null>(null)
  const attempt = (action: () => Promise<unknown>) => {
    setError(undefined)
    action().catch((failure: unknown) => setError(errorMessage(failure)))
  }
  const waitingCount = (sessionId: string) =>
    pending?.filter((approval) => approval.sessionId === sessionId).length ?? 0
  const consequencesOf = (sessionId: string) =>
    closeConsequences(
      waitingCount(sessionId),
      tasks?.filter((task) => task.sessionId === sessionId && task.status === 'running').length ?? 0,
    )
  const requestClose = (sessionId: string) => {
    if (consequencesOf(sessionId) === null) attempt(() => close(sessionId))
    else setConfirming(sessionId)
  }
  const oldestWaiting = new Map<string, string>()
  for (const approval of pending ?? [])
    if (!oldestWaiting.has(approval.sessionId)) oldestWaiting.set(approval.sessionId, approval.requestedAt)
  const groups = groupConversations(sessions ?? [], oldestWaiting)
  const confirmingSession = sessions?.find((session) => session.id === confirming)
  // Counted again at render: an approval answered meanwhile changes what closing would do.
  const confirmingConsequences = confirming ? consequencesOf(confirming) : null

  const item = (session: Session) => {
    const waiting = waitingCount(session.id)
    const isSelected = session.id === selected?.id
    const name = session.title || session.id
    return (
      <li
        key={session.id}
        className={`conversation${isSelected ? ' selected' : ''}`}
        data-origin={session.origin}
      >
        <button
          type="button"
          className="conversation-pick"
          aria-current={isSelected ? 'true' : undefined}
          aria-label={name}
          onClick={() => select(session.id)}
        >
          <span className="conversation-who">{conversationWho(session)}</span>
          <span className="conversation-where muted" title={session.workspace}>
            {workspaceName(session.workspace)} · started {startedWords(session.createdAt)}
            {session.origin === 'agent' && ` · ${channelWords(session.channels)}`}
            {/* Still waiting for the person after the agent left: the answer reaches its next run. */}
            {session.endedAt !== null && waiting > 0 && ' · ended, its next run reads your answer'}
          </span>
        </button>
        {waiting > 0 && (
          <span className="badge" data-field="waiting">
            {waiting} waiting
          </span>
        )}
        <button
          type="button"
          className="tab-close"
          aria-label={`Close conversation ${name}`}
          onClick={() => requestClose(session.id)}
        >
          ×
        </button>
      </li>
    )
  }

  return (
    <nav className="conversation-list" aria-label="Conversations">
      {groups.waiting.length > 0 && (
        <>
          <h2 className="small-heading">Waiting for you</h2>
          <ul>{groups.waiting.map(item)}</ul>
        </>
      )}
      {groups.open.length > 0 && (
        <>
          <h2 className="small-heading">Open</h2>
          <ul>{groups.open.map(item)}</ul>
        </>
      )}
      {groups.ended.length > 0 && (
        <details className="ended-conversations" open={groups.ended.some((s) => s.id === selected?.id)}>
          <summary>Ended ({groups.ended.length})</summary>
          <ul>{groups.ended.map(item)}</ul>
        </details>
      )}
      <button type="button" onClick={() => attempt(() => create())}>
        New conversation of your own
      </button>
      {confirmingSession && (
        <CloseSessionConfirm
          title={confirmingSession.title || confirmingSession.id}
          consequences={confirmingConsequences ?? 'Nothing is waiting any more'}
          onConfirm={() => {
            setConfirming(null)
            attempt(() => close(confirmingSession.id))
          }}
          onCancel={() => setConfirming(null)}
        />
      )}
      <FormError message={error} />
    </nav>
  )
}
