import { taskNotFound } from './task-error'
import type { StopResult, TaskRegistry } from './task-registry'
import type { TaskStopper } from './task-types'

export interface TaskStopInput {
  task_id?: string
  /** The old name of task_id, still accepted (seed 003 KillShell/KillBash). */
  shell_id?: string
}

/**
 * seed 003 TaskStop: ends a background task and its whole process tree, recording who stopped it so
 * the completion notice can say "stopped by you" rather than "by the user". Bounded at 10 s.
 */
export async function stopTask(
  registry: TaskRegistry,
  input: TaskStopInput,
  by: TaskStopper,
  sessionId?: string,
): Promise<StopResult & { message: string }> {
  const taskId = input.task_id ?? input.shell_id
  if (!taskId) {
    return { ok: false, code: 'invalid_input', message: 'task_id is required' }
  }
  const task = registry.get(taskId)
  if (!task || (sessionId !== undefined && task.sessionId !== sessionId)) {
    return { ok: false, code: 'not_found', message: taskNotFound(taskId).message }
  }
  const result = await registry.stop(taskId, by)
  if (!result.ok) return result
  const message = result.settled
    ? `Successfully stopped task ${taskId} (${task.command})`
    : `Stop requested for task ${taskId}; it had not exited after 10 s`
  return { ...result, message }
}
