import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type AgentHome,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  type RealCliName,
  realCliOrWhyNot,
  scriptedTurn,
  skipWithReason,
} from './real-clis'
import { startTestHub, type TestHub } from './test-hub'

const run = promisify(execFile)

let hub: TestHub | null = null
let agent: AgentHome | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
  await agent?.dispose()
  agent = null
})

/** How each real CLI runs one headless turn whose model calls Shellgate's MCP `bash`. */
interface Driver {
  cli: RealCliName
  connect: 'claude-code' | 'codex' | 'gemini'
  standIn: string
  /** How the client names Shellgate's bash tool to its model. */
  mcpBash: string
  env(home: string): Record<string, string>
  prepare?(home: string): Promise<void>
  argv(bin: string): string[]
}

const DRIVERS: Driver[] = [
  {
    cli: 'claude',
    connect: 'claude-code',
    standIn: resolve('test/fixtures/real-clis/with-fake-anthropic-api.mjs'),
    mcpBash: 'mcp__shellgate__bash',
    env: (home) => ({ CLAUDE_CONFIG_DIR: home, ANTHROPIC_API_KEY: 'not-a-key: the API is a local stand-in' }),
    argv: (bin) => [
      bin,
      '-p',
      'do the scripted step',
      '--output-format',
      'json',
      '--model',
      'claude-sonnet-4-5',
    ],
  },
  {
    cli: 'codex',
    connect: 'codex',
    standIn: resolve('test/fixtures/real-clis/with-fake-responses-api.mjs'),
    // One namespace per MCP server, `bash` in it.
    mcpBash: 'mcp__shellgate:bash',
    env: (home) => ({ CODEX_HOME: join(home, '.codex-home'), STAND_IN_KEY: 'not-a-key' }),
    argv: (bin) => [
      bin,
      'exec',
      ...['--skip-git-repo-check', '--ephemeral', '--json', '--dangerously-bypass-hook-trust'],
      ...['-c', 'model_provider="stand-in"', '-c', 'model_providers.stand-in.name="stand-in"'],
      ...['-c', 'model_providers.stand-in.base_url="{FAKE_API_URL}"'],
      ...['-c', 'model_providers.stand-in.wire_api="responses"'],
      ...['-c', 'model_providers.stand-in.env_key="STAND_IN_KEY"'],
      ...['-c', 'model_providers.stand-in.supports_websockets=false'],
      // `codex exec` sends its first request without waiting for MCP servers that are still
      // starting (under tsx, `shellgate mcp` takes seconds); it refuses an MCP call that needs its
      // own approval, which exec cannot ask for. Shellgate is the one that asks.
      ...['-c', 'mcp_optional_startup_grace_ms=60000'],
      ...['-c', 'mcp_servers.shellgate.default_tools_approval_mode="approve"'],
      ...['-m', 'gpt-stand-in', '-s', 'danger-full-access'],
      'do the scripted step',
    ],
  },
  {
    cli: 'gemini',
    connect: 'gemini',
    standIn: resolve('test/fixtures/real-clis/with-fake-gemini-api.mjs'),
    mcpBash: 'mcp_shellgate_bash',
    env: (home) => ({
      GEMINI_CLI_HOME: home,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_API_KEY: 'not-a-key: the API is a local stand-in',
    }),
    async prepare(home) {
      const settings = join(home, '.gemini', 'settings.json')
      const written = JSON.parse(await readFile(settings, 'utf8'))
      await writeFile(
        settings,
        JSON.stringify({ ...written, security: { auth: { selectedType: 'gemini-api-key' } } }),
      )
    },
    argv: (bin) => [
      bin,
      ...['-m', 'gemini-2.5-flash', '-p', 'do the scripted step', '--approval-mode', 'yolo'],
      ...['--output-format', 'json'],
    ],
  },
]

describe.each(DRIVERS)('the real $cli gives its model what Shellgate’s MCP bash answers', (driver) => {
  it('the output, the background task id and the waiting-for-approval message', {
    timeout: 400_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot(driver.cli)
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    const testHub = await startTestHub()
    hub = testHub
    agent = await makeAgentHome(`sg-${driver.cli}-out-`)
    const home = agent.home
    const env = {
      PATH: agent.path,
      HOME: home,
      SHELLGATE_HOME: testHub.home,
      SHELLGATE_NO_OPEN: '1',
      ...driver.env(home),
      ...OFFLINE_ENV,
    }
    await connectWrite(driver.connect, env)
    await driver.prepare?.(home)
    /** What the stand-in got back for its model's one bash call: the tool result as the client sent it. */
    const turn = async (command: string, input: Record<string, unknown> = {}, extraEnv = {}) => {
      const resultsFile = join(home, `results-${Date.now()}.json`)
      const [bin, argv] = scriptedTurn(driver.standIn, resultsFile, command, driver.argv(cli.bin), {
        tool: driver.mcpBash,
        input,
      })
      await run(bin, argv, { cwd: testHub.workspace, env: { ...env, ...extraEnv }, timeout: 200_000 })
      const results = await readFile(resultsFile, 'utf8')
      expect(JSON.parse(results)).toHaveLength(1)
      return results
    }

    // The command's text is not its output: the model must have been given what it printed.
    expect(await turn('printf "the-%s-42" output')).toContain('the-output-42')

    const background = await turn('printf started', { run_in_background: true })
    const [, taskId] = background.match(/running in background with ID: ([\w-]+)/) ?? []
    expect(taskId).toBeDefined()
    expect(testHub.host.core.tasks.get(taskId ?? '')).not.toBeNull()

    // Needs the person; nobody answers before this call's deadline, so the model learns its task id.
    const waiting = await turn(
      `touch ${join(testHub.workspace, 'later')}`,
      {},
      { SHELLGATE_MCP_DEADLINE_MS: '1500' },
    )
    expect(waiting).toMatch(/[Ww]aiting for your approval in Shellgate — it will run as task [\w-]+/)
  })
})
