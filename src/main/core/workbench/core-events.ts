import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { EventName, EventPayload } from '../../../shared/ipc/define'
import type { ApprovalBroker } from '../permissions/approval-broker'
import type { SettingsStore } from '../settings/settings-store'
import { followTaskOutput } from '../tasks/follow-task-output'
import type { TaskPorts } from '../tasks/task-ports'
import type { TaskRegistry } from '../tasks/task-registry'
import { toTaskView } from './task-view'
import type { SessionService } from './session-service'

type Emit = <E extends EventName<ShellgateContract>>(
  name: E,
  payload: EventPayload<ShellgateContract, E>,
) => void

/**
 * Turns the services' own listeners into contract events. A running task's output is followed
 * from its start until its end, coalesced by the follower to ~20 updates per second.
 */
export function forwardCoreEvents(input: {
  emit: Emit
  settings: SettingsStore
  approvals: ApprovalBroker
  tasks: TaskRegistry
  sessions: SessionService
  /** The ports each task listens on, for the view; none without it. */
  ports?: TaskPorts
}): () => void {
  const { emit } = input
  const followers = new Map<string, { stop(): void }>()
  // The registry's event snapshots do not stat the file; the follower knows when output last came.
  const lastOutputAt = new Map<string, string>()
  const view = (task: Parameters<typeof toTaskView>[0]) => {
    const seen = lastOutputAt.get(task.taskId)
    const ports = input.ports?.ports(task.taskId) ?? []
    return toTaskView(task.lastOutputAt === null && seen ? { ...task, lastOutputAt: seen } : task, ports)
  }
  const unsubscribers = [
    input.settings.onChange((change) => emit('settings.changed', { scope: change.scope })),
    input.sessions.onChange((sessions) => emit('sessions.changed', { sessions })),
    input.approvals.onRequested((approval) => emit('approvals.requested', approval)),
    input.approvals.onResolved((event) =>
      emit('approvals.resolved', {
        id: event.id,
        sessionId: event.sessionId,
        behavior: event.decision.behavior,
        decidedBy: event.decision.decidedBy,
      }),
    ),
    input.tasks.onEvent((event) => {
      emit('tasks.updated', view(event.task))
      const { taskId, sessionId } = event.task
      if (event.type === 'started' && !followers.has(taskId)) {
        followers.set(
          taskId,
          followTaskOutput(input.tasks, taskId, sessionId, (update) => {
            lastOutputAt.set(taskId, new Date().toISOString())
            emit('tasks.output', { taskId, sessionId, totalBytes: update.totalBytes, tail: update.tail })
          }),
        )
      }
      // The follower flushes its last update and stops by itself; only forget it here.
      if (event.type === 'completed') {
        followers.delete(taskId)
        lastOutputAt.delete(taskId)
      }
    }),
  ]
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe()
    for (const follower of followers.values()) follower.stop()
    followers.clear()
  }
}
