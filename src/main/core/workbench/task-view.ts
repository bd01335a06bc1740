import type { BackgroundTask } from '../../../shared/ipc/domains/tasks'
import type { TaskInfo } from '../tasks/task-types'

/** A task as the contract carries it to the Tasks screen. */
export function toTaskView(task: TaskInfo): BackgroundTask {
  return {
    id: task.taskId,
    sessionId: task.sessionId,
    command: task.command,
    description: task.description,
    status: task.status,
    startedAt: task.startedAt,
    endedAt: task.endedAt,
    exitCode: task.exitCode,
    exitSignal: task.exitSignal,
    totalBytes: task.bytes,
    lastOutputAt: task.lastOutputAt,
    outputPath: task.outputPath,
    stoppedBy: task.stoppedBy,
  }
}
