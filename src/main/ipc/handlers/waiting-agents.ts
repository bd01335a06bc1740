import type { WaitingAgent } from '../../../shared/ipc/domains/sessions'
import type { Core } from '../../core/app'

/** The agent conversations still open, with their waiting approvals: the folder screen shows them. */
export function waitingAgents(core: Core): WaitingAgent[] {
  const pending = core.approvals.list()
  return core.sessions.list().flatMap((session) =>
    session.agent && session.endedAt === null
      ? [
          {
            sessionId: session.id,
            title: session.title,
            workspace: session.workspace,
            agent: session.agent,
            pendingApprovals: pending.filter((approval) => approval.sessionId === session.id).length,
            lastSeenAt: session.lastSeenAt,
          },
        ]
      : [],
  )
}
