import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { CODEX_PASSED_ENV } from '../../../src/main/mcp/connect/client-configs'
import { type CodexAppServer, startCodexAppServer } from './codex-app-server'
import {
  type AgentHome,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  offline,
  realCliOrWhyNot,
  skipWithReason,
} from './real-clis'
import { startTestHub, type TestHub, textOf } from './test-hub'

const run = promisify(execFile)
const TOOLS = ['bash', 'check_command', 'list_tasks', 'task_output', 'task_stop']

let hub: TestHub | null = null
let agent: AgentHome | null = null
let appServer: CodexAppServer | null = null
afterEach(async () => {
  await appServer?.close()
  appServer = null
  await hub?.dispose()
  hub = null
  await agent?.dispose()
  agent = null
})

describe('the real Codex CLI reads what `shellgate connect codex --write` wrote', () => {
  it('accepts the config, starts shellgate mcp from it, lists the five tools, loads the hook and calls bash', {
    timeout: 300_000,
  }, async (context) => {
    const codex = await realCliOrWhyNot('codex')
    if ('skip' in codex) return skipWithReason(context, codex.skip)
    hub = await startTestHub()
    agent = await makeAgentHome('sg-codex-home-')
    const codexHome = join(agent.home, '.codex-home')
    // SHELLGATE_HOME is not HOME/.shellgate: a client that drops it would reach another hub.
    const env = {
      PATH: agent.path,
      HOME: agent.home,
      CODEX_HOME: codexHome,
      SHELLGATE_HOME: hub.home,
      SHELLGATE_NO_OPEN: '1',
      ...OFFLINE_ENV,
    }
    await connectWrite('codex', env)

    const [getBin, getArgs] = offline(codex.bin, ['mcp', 'get', 'shellgate', '--json'])
    const { stdout } = await run(getBin, getArgs, { cwd: hub.workspace, env, timeout: 60_000 })
    expect(JSON.parse(stdout)).toMatchObject({
      name: 'shellgate',
      enabled: true,
      transport: { type: 'stdio', command: 'shellgate', args: ['mcp'], env_vars: CODEX_PASSED_ENV },
      tool_timeout_sec: 60,
    })

    appServer = await startCodexAppServer(offline(codex.bin, ['app-server']), { cwd: hub.workspace, env })
    const hooks = (await appServer.request('hooks/list', { cwds: [hub.workspace] })) as {
      data: Array<{ hooks: unknown[]; warnings: unknown[]; errors: unknown[] }>
    }
    expect(hooks.data).toHaveLength(1)
    expect(hooks.data[0]).toMatchObject({
      hooks: [
        {
          eventName: 'preToolUse',
          handlerType: 'command',
          command: 'shellgate hook codex',
          matcher: 'Bash',
          timeoutSec: 600,
          source: 'user',
          enabled: true,
          // Codex runs a new hook only once the person trusts it in /hooks, as connect's note says.
          trustStatus: 'untrusted',
        },
      ],
      warnings: [],
      errors: [],
    })

    const status = (await appServer.request('mcpServerStatus/list', {})) as {
      data: Array<{ name: string; toolsError: string | null; tools: Record<string, unknown> }>
    }
    const shellgate = status.data.find((server) => server.name === 'shellgate')
    expect(shellgate?.toolsError).toBeNull()
    expect(Object.keys(shellgate?.tools ?? {}).sort()).toEqual(TOOLS)

    const thread = (await appServer.request('thread/start', { cwd: hub.workspace, ephemeral: true })) as {
      thread: { id: string }
    }
    const result = await appServer.request('mcpServer/tool/call', {
      server: 'shellgate',
      threadId: thread.thread.id,
      tool: 'bash',
      arguments: { command: 'pwd', description: 'where Codex runs Shellgate' },
    })
    expect(textOf(result)).toBe(hub.workspace)
    const sessions = await hub.ui.request('sessions.list', {})
    expect(sessions.find((session) => session.agent?.name === 'codex-mcp-client')).toMatchObject({
      workspace: hub.workspace,
      agent: { version: '0.171.0' },
    })
    // The server found the hub through SHELLGATE_HOME rather than starting its own under HOME.
    expect(existsSync(join(agent.home, '.shellgate'))).toBe(false)
  })
})
