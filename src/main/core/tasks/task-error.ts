/** A task request that cannot be served; crosses the IPC boundary as {code, message}. */
export class TaskError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_input',
    message: string,
  ) {
    super(message)
    this.name = 'TaskError'
  }
}

/** The same answer for "no such task" and "not your session's task", so ids of others leak nothing. */
export function taskNotFound(taskId: string): TaskError {
  return new TaskError('not_found', `No background task found with ID: ${taskId}`)
}
