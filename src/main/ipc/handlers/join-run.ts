import type { AgentRun, CallChannel, Session } from '../../../shared/ipc/domains/sessions'
import type { Core } from '../../core/app'
import type { ProcessIdentity } from '../../core/sessions/agent-process'
import { resolveSessionWorkspace } from '../../core/workbench/session-service'

/**
 * An agent's `sessions.create` that names its run joins that run's open (or ended) conversation
 * instead of making a second one: an MCP server that finds the conversation its agent's hooks
 * started, and `shellgate exec` run from an agent's shell (any agent: matched by process only).
 * Null when there is no such conversation, and the caller makes one.
 */
export async function joinRun(
  core: Core,
  input: {
    workspace: string | undefined
    agent: { name: string; version?: string | undefined } | undefined
    run: AgentRun | undefined
    channel: CallChannel
  },
  /** The agent's process, looked up by the caller (it needs it again to make a session). */
  agentProcess: Promise<ProcessIdentity | null>,
): Promise<Session | null> {
  const { run, agent, channel } = input
  if (!run || !agent || input.workspace === undefined) return null
  const process = await agentProcess
  if (!process && !run.agentSessionId) return null
  const workspace = await resolveSessionWorkspace(input.workspace)
  const found = core.sessions.findRun({
    agentName: agent.name,
    workspace,
    agentSessionId: run.agentSessionId,
    process,
    anyAgent: channel === 'exec',
  })
  if (!found) return null
  await core.sessions.touch(
    found.record.id,
    channel,
    {
      ...(run.agentSessionId && channel !== 'exec' ? { agentSessionId: run.agentSessionId } : {}),
      ...(process ? { process } : {}),
    },
    // A conversation a hook started knows no version; the MCP server's clientInfo brings it.
    channel === 'mcp' ? (agent.version ?? null) : null,
  )
  return core.sessions.list().find((session) => session.id === found.record.id) ?? null
}
