import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { type InProcessHub, startInProcessHub } from './hub-harness'

/**
 * Codex and Gemini CLI give their MCP server no session id, and their hooks carry the agent's own
 * id: what ties a hook's call to the MCP server's conversation is the agent process, the nearest
 * ancestor of both that is not a wrapper. Real processes stand in for the agents: `node` programs
 * (not wrappers), each starting a child that stands for its MCP server or its hook.
 */
let hub: InProcessHub | null = null
/** Every pid these tests start (agents and their children), ended after each test. */
const started: number[] = []
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
  await hub?.close()
  hub = null
})

/** An "agent": a node process that starts two children (its MCP server and its hook) and prints their pids. */
async function agentWithTwoChildren(): Promise<{ server: number; hook: number }> {
  const script = `
    const { spawn } = require('node:child_process')
    const kids = [0, 1].map(() => spawn('sleep', ['60'], { stdio: 'ignore' }))
    process.stdout.write(JSON.stringify(kids.map((kid) => kid.pid)) + '\\n')
    setInterval(() => {}, 1000)
  `
  const agent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  started.push(agent.pid!)
  const [line] = (await once(agent.stdout!, 'data')) as [Buffer]
  const [server, hook] = JSON.parse(String(line)) as [number, number]
  started.push(server, hook)
  return { server, hook }
}

describe('a hook call finds the conversation of its agent run by the agent process', () => {
  it('the hook of the agent whose MCP server opened a conversation lands in it; another agent gets its own', async () => {
    hub = await startInProcessHub()
    const connection = await hub.connectAgent()
    const codex = await agentWithTwoChildren()
    const other = await agentWithTwoChildren()
    const opened = await connection.client.request('sessions.create', {
      workspace: hub.workspace,
      agent: { name: 'codex' },
      run: { pid: codex.server },
    })
    const decide = (pid: number, agentSessionId: string) =>
      connection.client.request('hooks.decide', {
        agent: { name: 'codex' },
        agentSessionId,
        workspace: hub!.workspace,
        command: 'ls',
        pid,
      })
    await decide(codex.hook, 'thread-of-codex')
    const agentSessions = () => hub!.host.core.sessions.list().filter((session) => session.agent !== null)
    expect(agentSessions().map((session) => session.id)).toEqual([opened.id])
    const history = await connection.client.request('bash.history', { sessionId: opened.id })
    expect(history.map((call) => call.command)).toEqual(['ls'])

    // Same agent name, same workspace, another agent process: a conversation of its own.
    await decide(other.hook, 'thread-of-another')
    expect(agentSessions()).toHaveLength(2)
    expect((await connection.client.request('bash.history', { sessionId: opened.id })).length).toBe(1)
  })
})
