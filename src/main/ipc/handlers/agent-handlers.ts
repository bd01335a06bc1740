import { homedir } from 'node:os'
import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import { CONNECT_CLIENTS, clientSetup } from '../../mcp/connect/client-configs'
import type { AgentPresence } from '../agent-presence'
import type { Handlers } from '../dispatcher'

type AgentHandlers = Pick<Handlers<ShellgateContract>, 'agents.list'>

/** Settings → Agents: the agent sessions, who is connected and what runs, and how to connect more. */
export function agentHandlers(core: Core, presence: AgentPresence): AgentHandlers {
  return {
    'agents.list': async () => {
      const tasks = await core.tasks.list()
      const agents = core.sessions.list().flatMap((session) => {
        if (!session.agent) return []
        const calls = core.sessions
          .get(session.id)
          .history.list()
          .filter((call) => call.status === 'running' || call.status === 'waiting_for_approval')
          .map((call) => ({
            callId: call.id,
            command: call.command,
            status: call.status,
            startedAt: call.startedAt,
          }))
        return [
          {
            sessionId: session.id,
            title: session.title,
            agent: session.agent,
            workspace: session.workspace,
            connected: presence.isConnected(session.id),
            calls,
            tasks: tasks
              .filter((task) => task.sessionId === session.id && task.status === 'running')
              .map((task) => ({ taskId: task.taskId, command: task.command, startedAt: task.startedAt })),
          },
        ]
      })
      const home = process.env.HOME || homedir()
      const setups = CONNECT_CLIENTS.map((client) => {
        const setup = clientSetup(client, process.env, home)
        return {
          client,
          title: setup.title,
          command: setup.command,
          files: setup.edits.map((edit) => ({
            path: edit.path,
            text: edit.kind === 'json' ? JSON.stringify(edit.snippet, null, 2) : edit.block,
          })),
          notes: setup.notes,
        }
      })
      return { agents, setups }
    },
  }
}
