import { taskNotFound } from './task-error'
import { followOutputFile, type OutputFollower, type OutputUpdate } from './follow-output'
import type { TaskRegistry } from './task-registry'

export interface TaskOutputUpdate extends OutputUpdate {
  taskId: string
  sessionId: string
}

/**
 * The Tasks screen's live tail: follows a task of `sessionId` (others are not found), coalesced to
 * FOLLOW_INTERVAL_MS, and stops by itself after the final update once the task has ended.
 */
export function followTaskOutput(
  registry: TaskRegistry,
  taskId: string,
  sessionId: string,
  listener: (update: TaskOutputUpdate) => void,
  options: { intervalMs?: number } = {},
): { stop(): void } {
  const task = registry.get(taskId)
  if (!task || task.sessionId !== sessionId) throw taskNotFound(taskId)
  const file = registry.outputFile(taskId)
  // No output file was ever created: there is nothing to follow, and nothing at the path is ours.
  if (!file) return { stop() {} }
  const follower: OutputFollower = followOutputFile(
    file,
    (update) => listener({ taskId, sessionId, ...update }),
    options,
  )
  let stopped = false
  const stop = () => {
    stopped = true
    unsubscribe()
    follower.stop()
  }
  const finish = async () => {
    await follower.flush()
    if (!stopped) stop()
  }
  const unsubscribe = registry.onEvent((event) => {
    if (event.type === 'completed' && event.task.taskId === taskId) void finish()
  })
  if (task.status !== 'running') void finish()
  return { stop }
}
