import { useState } from 'react'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { useSessions } from './SessionsProvider'

/** Open sessions as tabs: select, close, and start a new one. */
export function SessionTabs() {
  const { sessions, selected, select, create, close } = useSessions()
  const [error, setError] = useState<string>()
  const attempt = (action: () => Promise<unknown>) => {
    setError(undefined)
    action().catch((failure: unknown) => setError(errorMessage(failure)))
  }
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
              onClick={() => attempt(() => close(session.id))}
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
      <FormError message={error} />
    </nav>
  )
}
