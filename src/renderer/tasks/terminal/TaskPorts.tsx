import { useState } from 'react'
import type { BackgroundTask } from '../../../shared/ipc/domains/tasks'
import { FormError } from '../../forms/FormError'
import { errorMessage } from '../../forms/field-errors'
import { useClient } from '../../rpc'

/**
 * The ports a task's processes listen on (issue 23.3). The server runs in the sandbox's own network
 * namespace, so the browser reaches it only once the person opens it here: Shellgate then listens
 * on the host's 127.0.0.1 and carries each connection in. Only the person can; an agent cannot.
 */
export function TaskPorts({
  task,
  onChanged,
}: {
  task: BackgroundTask
  onChanged: (task: BackgroundTask) => void
}) {
  const client = useClient()
  const [busy, setBusy] = useState<number | null>(null)
  const [error, setError] = useState<string>()
  if (task.ports.length === 0 || task.status !== 'running') return null
  const act = (method: 'tasks.openPort' | 'tasks.closePort', port: number) => {
    setBusy(port)
    setError(undefined)
    client.request(method, { sessionId: task.sessionId, taskId: task.id, port }).then(
      (next) => {
        setBusy(null)
        onChanged(next)
      },
      (failure: unknown) => {
        setBusy(null)
        setError(errorMessage(failure))
      },
    )
  }
  return (
    <div className="task-ports" data-field="ports">
      {task.ports.map(({ port, openedAt }) =>
        openedAt === null ? (
          <button
            key={port}
            type="button"
            disabled={busy === port}
            onClick={() => act('tasks.openPort', port)}
          >
            Open 127.0.0.1:{port}
          </button>
        ) : (
          <span key={port} className="task-port-open">
            <a href={`http://127.0.0.1:${openedAt}/`} target="_blank" rel="noreferrer noopener">
              http://127.0.0.1:{openedAt}
            </a>
            {openedAt !== port && <span className="muted"> (the task's port {port})</span>}{' '}
            <button type="button" disabled={busy === port} onClick={() => act('tasks.closePort', port)}>
              Close
            </button>
          </span>
        ),
      )}
      <FormError message={error} />
    </div>
  )
}
