import { homedir } from 'node:os'
import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { agentFamily } from '../../core/sessions/agent-runs'
import { AUDIT_READ_MAX_LIMIT } from '../../core/settings/audit-reader'
import { keptView } from '../../core/workbench/kept-decisions'
import { lastSeenBy, setupStatus } from '../../mcp/connect/setup-status'
import type { Handlers } from '../dispatcher'
import type { SessionOwnership } from '../session-ownership'

type DeskHandlers = Pick<
  Handlers<ShellgateContract>,
  | 'tasks.decisions'
  | 'tasks.clearDecision'
  | 'rules.offers'
  | 'rules.acceptOffer'
  | 'rules.dismissOffer'
  | 'agents.status'
>

/** Issue 22's desk methods: kept decisions, learned rule offers, agent setup status. */
export function deskHandlers(core: Core, ownership: SessionOwnership): DeskHandlers {
  return {
    'tasks.decisions': (_input, context) => {
      const all = core.kept.list()
      if (context.role === 'ui') return all.map(keptView)
      // An agent reads its own agent's decisions in the folders its conversations work in.
      const mine = ownership.sessionsOf(context.connectionId).flatMap((id) => {
        const session = core.sessions.list().find((each) => each.id === id)
        return session?.agent ? [`${agentFamily(session.agent.name)}\n${session.workspace}`] : []
      })
      return all.filter((kept) => mine.includes(`${kept.agent}\n${kept.workspace}`)).map(keptView)
    },
    'tasks.clearDecision': async ({ taskId }) => {
      if (!(await core.kept.clear(taskId)))
        throw new RpcError('invalid_input', `tasks.clearDecision: taskId: no kept decision "${taskId}"`)
      return { ok: true as const }
    },
    'rules.offers': () => core.ruleOffers.list(),
    'rules.acceptOffer': async (input) => ({ ok: true as const, ...(await core.ruleOffers.accept(input)) }),
    'rules.dismissOffer': async ({ id }) => {
      await core.ruleOffers.dismiss(id)
      return { ok: true as const }
    },
    'agents.status': async () => {
      const audit = await core.audit.read({ limit: AUDIT_READ_MAX_LIMIT }).catch(() => null)
      const seen = [
        ...core.sessions
          .list()
          .flatMap((session) =>
            session.agent && session.lastSeenAt
              ? [{ agent: session.agent.name, at: session.lastSeenAt }]
              : [],
          ),
        ...(audit?.entries ?? []).flatMap((entry) =>
          entry.agent ? [{ agent: entry.agent, at: entry.time }] : [],
        ),
      ]
      // The person's environment as their shell gives it (PATH, HOME, CLAUDE_CONFIG_DIR…), and this hub's home.
      const env: Record<string, string | undefined> = {
        ...(await core.environment.ready()),
        SHELLGATE_HOME: core.dataDir,
      }
      const clients = await setupStatus({
        env,
        home: env.HOME || homedir(),
        hubRunning: true,
        lastSeen: lastSeenBy(seen),
      })
      return { clients }
    },
  }
}
