import type { ApprovalBroker } from '../permissions/approval-broker'
import type { TaskRegistry } from '../tasks/task-registry'
import type { SessionService } from './session-service'

/** Ended agent conversations kept (folded) for the person to look back at; older ones are forgotten. */
export const ENDED_CONVERSATIONS_KEPT = 20

/**
 * Sessions must not pile up (issue 22, 13 look-alike tabs after 35 minutes): past the newest
 * ENDED_CONVERSATIONS_KEPT ended agent conversations, the oldest are closed, except one that still
 * has a running task or a waiting approval (the person may still need it). The kept decisions of
 * promised tasks live on in their own file.
 */
export function watchEndedConversations(deps: {
  sessions: SessionService
  tasks: TaskRegistry
  approvals: ApprovalBroker
  close: (sessionId: string) => Promise<void>
}): () => void {
  let pruning = false
  return deps.sessions.onChange((sessions) => {
    if (pruning) return
    const ended = sessions
      .filter((session) => session.endedAt !== null)
      .sort((a, b) => (a.endedAt ?? '').localeCompare(b.endedAt ?? ''))
    const excess = ended.slice(0, Math.max(0, ended.length - ENDED_CONVERSATIONS_KEPT))
    if (excess.length === 0) return
    pruning = true
    void (async () => {
      const tasks = await deps.tasks.list()
      const waiting = new Set(deps.approvals.list().map((approval) => approval.sessionId))
      for (const session of excess) {
        const busy =
          waiting.has(session.id) ||
          tasks.some((task) => task.sessionId === session.id && task.status === 'running')
        if (!busy) await deps.close(session.id).catch(() => undefined)
      }
    })().finally(() => {
      pruning = false
    })
  })
}
