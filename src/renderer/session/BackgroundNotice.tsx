import { useTasks } from '../tasks/TasksProvider'

/**
 * Where a backgrounded call went and, once its task has ended, how: the task's live state wins over
 * the call's taskStatus, which is only as fresh as the last bash.call event or history load.
 */
export function BackgroundNotice({ taskId, taskStatus }: { taskId: string; taskStatus: string | null }) {
  const task = useTasks().tasks?.find((t) => t.id === taskId)
  const status = task && task.status !== 'running' ? task.status : (taskStatus ?? task?.status ?? 'running')
  const link = <a href="#/tasks">Open Tasks</a>
  if (status === 'running')
    return (
      <p className="call-notice" data-field="background">
        Running in the background as task <code>{taskId}</code>. {link}
      </p>
    )
  const exit = task?.exitCode === null || task?.exitCode === undefined ? '' : ` (exit ${task.exitCode})`
  return (
    <p className="call-notice" data-field="background">
      Ran in the background as task <code>{taskId}</code>: {status}
      {exit}. {link}
    </p>
  )
}
