import { basename } from 'node:path'
import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import { refuseBroadAgentWorkspace } from '../agent-workspace'
import type { Handlers } from '../dispatcher'

type HookHandlers = Pick<Handlers<ShellgateContract>, 'hooks.decide'>

/**
 * Each hook call is its own short process and connection, so the hub keeps the session: one per
 * (agent, its session id, workspace), created on the first question and reused after.
 */
export function hookHandlers(core: Core): HookHandlers {
  const sessions = new Map<string, Promise<string>>()
  const sessionFor = (
    agent: { name: string; version?: string },
    agentSessionId: string,
    workspace: string,
  ) => {
    const key = JSON.stringify([agent.name, agentSessionId, workspace])
    const known = sessions.get(key)
    if (known) return known
    const created = core.sessions
      .create({
        title: `${agent.name} (hook) · ${basename(workspace) || workspace}`.slice(0, 200),
        workspace,
        agent: { name: agent.name, version: agent.version ?? null },
      })
      .then((session) => session.id)
    // A failed create (bad workspace, session cap) is not remembered: the next call tries again.
    created.catch(() => sessions.delete(key))
    sessions.set(key, created)
    return created
  }
  return {
    'hooks.decide': async ({ agent, agentSessionId, workspace, command, description }, context) => {
      const places = { userHome: core.sandbox.home, shellgateHome: core.dataDir }
      await refuseBroadAgentWorkspace(workspace, places)
      const key = JSON.stringify([agent.name, agentSessionId, workspace])
      let sessionId = await sessionFor(agent, agentSessionId, workspace)
      // The person may have closed that session; a new one takes its place.
      if (!core.sessions.list().some((session) => session.id === sessionId)) {
        sessions.delete(key)
        sessionId = await sessionFor(agent, agentSessionId, workspace)
      }
      const stored = core.sessions.list().find((session) => session.id === sessionId)?.workspace
      await refuseBroadAgentWorkspace(workspace, places, stored).catch(async (error: unknown) => {
        sessions.delete(key)
        await core.closeSession(sessionId)
        throw error
      })
      const verdict = await core.bash.decideForHook(
        sessionId,
        { command, ...(description ? { description } : {}) },
        context.signal,
      )
      return { decision: verdict.decision, reason: verdict.reason, decidedBy: verdict.decidedBy, sessionId }
    },
  }
}
