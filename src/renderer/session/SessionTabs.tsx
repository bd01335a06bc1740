import { useState } from 'react'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { usePendingApprovals } from '../approvals/PendingApprovalsProvider'
import { useTasks } from '../tasks/TasksProvider'
import { CloseSessionConfirm } from './CloseSessionConfirm'
import { closeConsequences } from './close-consequences'
import { useSessions } from './SessionsProvider'

/** Open sessions as tabs: select, close (asking first when work would be lost), and start a new one. */
export function SessionTabs() {
  const { sessions, selected, select, create, close } = useSessions()
  const { pending } = usePendingApprovals()
  const { tasks } = useTasks()
  const [error, setError] = useState<string>()
  const [confirming, setConfirming] = useState<string | null>(null)
  const attempt = (action: () => Promise<unknown>) => {
    setError(undefined)
    action().catch((failure: unknown) => setError(errorMessage(failure)))
  }
  const consequencesOf = (sessionId: string) =>
    closeConsequences(
      pending?.filter((approval) => approval.sessionId === sessionId).length ?? 0,
      tasks?.filter((task) => task.sessionId === sessionId && task.status === 'running').length ?? 0,
    )
  const requestClose = (sessionId: string) => {
    if (consequencesOf(sessionId) === null) attempt(() => close(sessionId))
    else setConfirming(sessionId)
  }
  const confirmingSession = sessions?.find((session) => session.id === confirming)
  // Counted again at render: an approval answered meanwhile changes what closing would do.
  const confirmingConsequences = confirming ? consequencesOf(confirming) : null
  return (
    <nav className="session-tabs" aria-label="Sessions">
      <ul>
        {(sessions ?? []).map((session) => (
          <li key={session.id} className={session.id === selected?.id ? 'selected' : undefined}>
            <button
              type="button"
              className="tab"
              aria-current={session.id === selected?.id ? 'true' : undefined}
              onClick={() => select(session.id)}
            >
              {session.title || session.id}
            </button>
            <button
              type="button"
              className="tab-close"
              aria-label={`Close session ${session.title || session.id}`}
              onClick={() => requestClose(session.id)}
            >
              ×
            </button>
          </li>
        ))}
        <li>
          <button type="button" onClick={() => attempt(() => create())}>
            New session
          </button>
        </li>
      </ul>
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
