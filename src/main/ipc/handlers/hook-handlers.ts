import { basename } from 'node:path'
import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import { refuseBroadAgentWorkspace } from '../agent-workspace'
import type { Handlers } from '../dispatcher'
import { createTicketStreams } from '../ticket-streams'

type HookHandlers = Pick<
  Handlers<ShellgateContract>,
  'hooks.decide' | 'hooks.runTicket' | 'hooks.ticketOutput'
>

/**
 * Each hook call is its own short process and connection, so the hub keeps the session: one per
 * (agent, its session id, workspace), created on the first question and reused after. This is the
 * one place that choice is made (`sessionFor`). A ticket run lands in the session its hook decided
 * in: the grant carries it.
 */
export function hookHandlers(core: Core): HookHandlers {
  const sessions = new Map<string, Promise<string>>()
  const streams = createTicketStreams()
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
    'hooks.decide': async (input, context) => {
      const { agent, agentSessionId, workspace } = input
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
        {
          command: input.command,
          ...(input.description ? { description: input.description } : {}),
          ...(input.rewrite ? { rewrite: true } : {}),
          ...(input.terminal ? { terminal: true } : {}),
          ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
        },
        context.signal,
      )
      return {
        decision: verdict.decision,
        reason: verdict.reason,
        decidedBy: verdict.decidedBy,
        sessionId,
        ticket: verdict.ticket,
      }
    },
    'hooks.runTicket': async ({ ticket, callId }, context) => {
      streams.open(callId, context.connectionId)
      try {
        return await core.bash.runTicket(ticket, {
          callId,
          signal: context.signal,
          onOutputFile: (file) => streams.attach(callId, file, process.platform),
        })
      } finally {
        streams.end(callId)
      }
    },
    'hooks.ticketOutput': ({ callId, fromByte, waitMs }, context) =>
      streams.read(callId, context.connectionId, fromByte, waitMs, context.signal),
  }
}
