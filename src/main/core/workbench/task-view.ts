import type { BackgroundTask, TaskPort } from '../../../shared/ipc/domains/tasks'
import type { TaskInfo } from '../tasks/task-types'

/** A task as the contract carries it to the Tasks screen, with the ports it listens on. */
export function toTaskView(task: TaskInfo, ports: TaskPort[] = []): BackgroundTask {
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
    tty: task.tty,
    ports,
  }
}
