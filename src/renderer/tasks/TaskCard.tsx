import { memo, useState } from 'react'
import type { BackgroundTask } from '../../shared/ipc/domains/tasks'
import { FormError } from '../forms/FormError'
import { errorMessage } from '../forms/field-errors'
import { commandName, commandStart } from '../format/command-name'
import { formatAge, formatBytes, formatDuration, formatTime } from '../format/measures'
import { CommandText } from '../commands/CommandText'
import { useNow } from '../format/use-now'
import { useClient } from '../rpc'
import { TaskTail } from './TaskTail'
import { TaskInputLog } from './terminal/TaskInputLog'
import { TaskPorts } from './terminal/TaskPorts'
import { TerminalView } from './terminal/TerminalView'
import type { LiveTaskOutput } from './TasksProvider'

/**
 * How a stopped task ended. The contract carries no exit signal for a task yet (the core knows it),
 * so this says who stopped it; the signal belongs here once BackgroundTask has exitSignal.
 */
function stopReason(task: BackgroundTask): string {
  const who =
    task.stoppedBy === 'caller'
      ? 'stopped by the agent'
      : task.stoppedBy === 'idle'
        ? 'stopped after the idle limit'
        : 'stopped by user'
  return task.exitSignal ? `${who} (${task.exitSignal})` : who
}

/**
 * One background task: state and measures (ticking while it runs), its live tail, Stop, and the full
 * log's path. Memoised: output for one task re-renders that task only.
 */
export const TaskCard = memo(function TaskCard({
  task,
  live,
  onChanged,
  open,
  onOpenChange,
}: {
  task: BackgroundTask
  live: LiveTaskOutput | undefined
  onChanged: (task: BackgroundTask) => void
  open: boolean
  onOpenChange: (taskId: string, open: boolean) => void
}) {
  const client = useClient()
  const running = task.status === 'running'
  // New output is also a clock reading, so the age never reads older than the output on screen.
  const now = Math.max(useNow(running), live?.grewAt ?? 0)
  const [stopping, setStopping] = useState(false)
  const [error, setError] = useState<string>()

  const start = commandStart(task.command)
  const started = Date.parse(task.startedAt)
  const elapsed = (task.endedAt ? Date.parse(task.endedAt) : now) - started
  const lastOutput = Math.max(task.lastOutputAt ? Date.parse(task.lastOutputAt) : 0, live?.grewAt ?? 0)
  const bytes = Math.max(task.totalBytes, live?.totalBytes ?? 0)

  const stop = () => {
    setStopping(true)
    setError(undefined)
    client.request('tasks.stop', { taskId: task.id }).then(
      (stopped) => {
        setStopping(false)
        onChanged(stopped)
      },
      (failure: unknown) => {
        setStopping(false)
        setError(errorMessage(failure))
      },
    )
  }

  return (
    <article className="panel task-card" aria-label={commandName(task.command)} data-status={task.status}>
      <header className="call-header">
        <span className={`status status-${task.status}`} data-field="status">
          {task.status}
        </span>
        <CommandText command={task.command} className="call-command" as="code" />
        {running && (
          <button
            type="button"
            className="danger push-right"
            aria-label={`Stop ${start}`}
            onClick={stop}
            disabled={stopping}
          >
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        )}
      </header>
      {task.description && <p className="muted">{task.description}</p>}
      <dl className="inline-facts">
        <dt>Task</dt>
        <dd>
          <code>{task.id}</code>
        </dd>
        <dt>Started</dt>
        <dd>{formatTime(task.startedAt)}</dd>
        <dt>Elapsed</dt>
        <dd data-field="elapsed">{formatDuration(Math.max(0, elapsed))}</dd>
        <dt>Last output</dt>
        <dd data-field="lastOutput">
          {/* An age only means something while the task runs; afterwards the moment itself is the fact. */}
          {lastOutput === 0
            ? bytes > 0
              ? 'not recorded'
              : 'no output yet'
            : running
              ? formatAge(Math.max(0, now - lastOutput))
              : formatTime(new Date(lastOutput).toISOString())}
        </dd>
        <dt>Output</dt>
        <dd data-field="bytes">{formatBytes(bytes)}</dd>
        {task.exitCode !== null && (
          <>
            <dt>Exit</dt>
            <dd data-field="exit">{task.exitCode}</dd>
          </>
        )}
        {task.status === 'stopped' && (
          <>
            <dt>Stopped</dt>
            <dd data-field="stopped">{stopReason(task)}</dd>
          </>
        )}
        {task.stoppedBy && (
          <>
            <dt>Stopped by</dt>
            <dd data-field="stoppedBy">{task.stoppedBy}</dd>
          </>
        )}
      </dl>
      {!running && (
        <p className="muted">
          Full log: <code data-field="outputPath">{task.outputPath}</code>
        </p>
      )}
      <FormError message={error} />
      <TaskPorts task={task} onChanged={onChanged} />
      <button
        type="button"
        aria-expanded={open}
        aria-label={`${open ? 'Hide' : 'Show'} ${task.tty ? 'terminal' : 'output'} of ${start}`}
        onClick={() => onOpenChange(task.id, !open)}
      >
        {open ? (task.tty ? 'Hide terminal' : 'Hide output') : task.tty ? 'Open terminal' : 'Show output'}
      </button>
      {open && !task.tty && <TaskTail sessionId={task.sessionId} taskId={task.id} live={live} />}
      {open && task.tty && (
        <>
          <TerminalView sessionId={task.sessionId} taskId={task.id} running={running} />
          <TaskInputLog sessionId={task.sessionId} taskId={task.id} />
        </>
      )}
    </article>
  )
})
