import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
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
  answerAgentCard,
  scriptedTurn,
  realCliOrWhyNot,
  skipWithReason,
} from './real-clis'
import { startTestHub, type TestHub, textOf } from './test-hub'

const WITH_FAKE_API = resolve('test/fixtures/real-clis/with-fake-responses-api.mjs')
/** A model provider that is the local stand-in; Codex's own sandbox is off, the namespace is the guard. */
const FAKE_MODEL = [
  ...['-c', 'model_provider="stand-in"', '-c', 'model_providers.stand-in.name="stand-in"'],
  ...[
    '-c',
    'model_providers.stand-in.base_url="{FAKE_API_URL}"',
    '-c',
    'model_providers.stand-in.wire_api="responses"',
  ],
  ...[
    '-c',
    'model_providers.stand-in.env_key="STAND_IN_KEY"',
    '-c',
    'model_providers.stand-in.supports_websockets=false',
  ],
  ...['-m', 'gpt-stand-in', '-s', 'danger-full-access'],
]

const run = promisify(execFile)
const TOOLS = ['bash', 'check_command', 'list_tasks', 'task_input', 'task_output', 'task_stop']

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
  it('accepts the config, starts shellgate mcp from it, lists the six tools, loads the hook and calls bash', {
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
          // Every tool (issue 20.2): a shell tool Codex adds later reaches the hook too.
          matcher: '*',
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

  it("runs its own exec_command through connect's PreToolUse hook: allowed, denied with the message, and denied when no hub answers", {
    timeout: 300_000,
  }, async (context) => {
    const codex = await realCliOrWhyNot('codex')
    if ('skip' in codex) return skipWithReason(context, codex.skip)
    const testHub = await startTestHub()
    hub = testHub
    agent = await makeAgentHome('sg-codex-home-')
    const home = agent.home
    const env = {
      PATH: agent.path,
      HOME: home,
      CODEX_HOME: join(home, '.codex-home'),
      SHELLGATE_HOME: testHub.home,
      SHELLGATE_NO_OPEN: '1',
      STAND_IN_KEY: 'not-a-key: the API is a local stand-in',
      ...OFFLINE_ENV,
    }
    await connectWrite('codex', env)

    /** One `codex exec` turn whose model runs `command`; the person answers its card, if any. */
    const turn = async (
      command: string,
      answer: { kind: 'allow_once' } | { kind: 'deny'; message: string } | null,
      extra: { env?: Record<string, string>; args?: string[] } = {},
    ) => {
      const resultsFile = join(home, `results-${Date.now()}.json`)
      const [bin, argv] = scriptedTurn(WITH_FAKE_API, resultsFile, command, [
        codex.bin,
        'exec',
        ...['--skip-git-repo-check', '--ephemeral', '--json'],
        // Trusting a new hook is the person's step in /hooks (the test above sees it untrusted).
        '--dangerously-bypass-hook-trust',
        ...FAKE_MODEL,
        ...(extra.args ?? []),
        'do the scripted step',
      ])
      const finished = run(bin, argv, {
        cwd: testHub.workspace,
        env: { ...env, ...extra.env },
        timeout: 200_000,
      })
      if (answer) {
        await answerAgentCard(testHub, { agent: 'codex', command }, answer)
      }
      await finished
      const results = JSON.parse(await readFile(resultsFile, 'utf8')) as Array<{ output?: string }>
      return results.map((result) => result.output ?? '').join('\n')
    }

    const allowed = join(testHub.workspace, 'allowed-marker')
    expect(await turn(`touch ${allowed} && echo made`, { kind: 'allow_once' })).toMatch(
      /exited with code 0[\s\S]*made/,
    )
    expect(existsSync(allowed)).toBe(true)

    const denied = join(testHub.workspace, 'denied-marker')
    expect(
      await turn(`touch ${denied}`, { kind: 'deny', message: 'use the build script instead' }),
    ).toContain('Command blocked by PreToolUse hook: use the build script instead')
    expect(existsSync(denied)).toBe(false)

    // No hub can start (its home is under a file): Codex would run the command on `ask`, so the
    // hook must answer deny (issue 11), with the reason.
    const unanswered = join(testHub.workspace, 'unanswered-marker')
    await writeFile(join(home, 'a-file'), '')
    const output = await turn(`touch ${unanswered}`, null, {
      env: { SHELLGATE_HOME: join(home, 'a-file', 'sg') },
      args: ['-c', 'mcp_servers.shellgate.enabled=false'],
    })
    expect(output).toMatch(
      /Command blocked by PreToolUse hook: Shellgate is not running and could not be started/,
    )
    expect(existsSync(unanswered)).toBe(false)
  })
})
