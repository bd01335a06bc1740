import { useState } from 'react'
import { EmptyState } from '../components/EmptyState'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { useClient } from '../rpc'
import { TaskCard } from '../tasks/TaskCard'
import { useTasks } from '../tasks/TasksProvider'

export function TasksScreen() {
  const client = useClient()
  const { tasks, live, error, upsert, openTails, setTailOpen } = useTasks()
  const [stopAll, setStopAll] = useState<{ busy: boolean; result?: string; error?: string }>({ busy: false })
  const running = tasks?.filter((task) => task.status === 'running').length ?? 0

  const [confirming, setConfirming] = useState(false)
  const stopEverything = () => {
    setConfirming(false)
    setStopAll({ busy: true })
    client.request('tasks.stopAll', {}).then(
      ({ stopped }) =>
        setStopAll({ busy: false, result: `Stopped ${stopped} ${stopped === 1 ? 'task' : 'tasks'}.` }),
      (failure: unknown) => setStopAll({ busy: false, error: errorMessage(failure) }),
    )
  }

  return (
    <section className="screen" aria-labelledby="tasks-title">
      <header className="screen-header">
        <h1 id="tasks-title">Tasks</h1>
        <button
          type="button"
          className="danger"
          onClick={() => setConfirming(true)}
          disabled={running === 0 || stopAll.busy}
          aria-expanded={confirming}
        >
          Stop all
        </button>
      </header>
      {confirming && running > 0 && (
        <fieldset aria-label="Stop all tasks?" className="close-confirm">
          <p>
            Stop {running} running {running === 1 ? 'task' : 'tasks'}? Each one's whole process tree is ended.
          </p>
          <button type="button" className="danger" onClick={stopEverything}>
            Stop {running} {running === 1 ? 'task' : 'tasks'}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </fieldset>
      )}
      {stopAll.result && (
        <p className="muted" role="status">
          {stopAll.result}
        </p>
      )}
      <FormError message={stopAll.error} />
      {error && <p role="alert">Could not load tasks: {error}</p>}
      {tasks === null && !error && <p className="muted">Loading…</p>}
      {tasks?.length === 0 && (
        <EmptyState title="No background tasks">
          Long-running commands move here as background tasks, with their live output and a Stop button. There
          are no background tasks.
        </EmptyState>
      )}
      {tasks?.map((task) => (
        <TaskCard
          key={task.id}
          task={task}
          live={live.get(task.id)}
          onChanged={upsert}
          open={openTails.has(task.id)}
          onOpenChange={setTailOpen}
        />
      ))}
    </section>
  )
}
