import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import { agentProcessOf, type ProcessIdentity } from '../../core/sessions/agent-process'
import { resolveSessionWorkspace } from '../../core/workbench/session-service'
import { refuseBroadAgentWorkspace } from '../agent-workspace'
import type { Handlers } from '../dispatcher'
import { createTicketStreams } from '../ticket-streams'

type HookHandlers = Pick<
  Handlers<ShellgateContract>,
  'hooks.decide' | 'hooks.runTicket' | 'hooks.ticketOutput'
>

/**
 * Each hook call is its own short process and connection, so the hub keeps the session: the
 * conversation of the agent run it belongs to (issue 22.4), found by the agent's session id or by
 * the agent process among the hook's ancestors, so the hook's calls and the MCP server's of one run
 * share one history; made on the run's first question otherwise. This is the one place that
 * choice is made (`sessionFor`). A ticket run lands in the session its hook decided in: the grant
 * carries it.
 */
export function hookHandlers(core: Core): HookHandlers {
  const creating = new Map<string, Promise<string>>()
  const streams = createTicketStreams()
  const sessionFor = async (
    agent: { name: string; version?: string },
    agentSessionId: string,
    workspace: string,
    agentProcess: Promise<ProcessIdentity | null>,
  ): Promise<string> => {
    const [real, process] = await Promise.all([resolveSessionWorkspace(workspace), agentProcess])
    const run = { agentSessionId, ...(process ? { process } : {}) }
    const found = core.sessions.findRun({ agentName: agent.name, workspace: real, agentSessionId, process })
    if (found) {
      await core.sessions.touch(found.record.id, 'hook', run)
      return found.record.id
    }
    // Two questions of a new run at once make one conversation, not two.
    const key = JSON.stringify([agent.name, agentSessionId, real])
    const pending = creating.get(key)
    if (pending) return pending
    const created = core.sessions
      .create({
        workspace: real,
        agent: { name: agent.name, version: agent.version ?? null },
        run,
        channel: 'hook',
      })
      .then((session) => session.id)
      .finally(() => creating.delete(key))
    creating.set(key, created)
    return created
  }
  return {
    'hooks.decide': async (input, context) => {
      const { agent, agentSessionId, workspace } = input
      const places = { userHome: core.sandbox.home, shellgateHome: core.dataDir }
      // Read-only and independent of the checks: the agent's process (a walk up /proc) is looked up
      // while the workspace is, not after it, on every hook call. Null when unknown, as before.
      const agentProcess = input.pid
        ? agentProcessOf(input.pid, core.platform).catch(() => null)
        : Promise.resolve(null)
      await refuseBroadAgentWorkspace(workspace, places)
      // A conversation the person closed is gone from the list, so the run starts a new one.
      const sessionId = await sessionFor(agent, agentSessionId, workspace, agentProcess)
      const stored = core.sessions.list().find((session) => session.id === sessionId)?.workspace
      await refuseBroadAgentWorkspace(workspace, places, stored).catch(async (error: unknown) => {
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
