import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  offline,
  answerAgentCard,
  scriptedTurn,
  realCliOrWhyNot,
  skipWithReason,
  disposedAfterEach,
} from './real-clis'
import { CLI_ENTRY, startTestHub, TSX_LOADER } from './test-hub'

const WITH_FAKE_API = resolve('test/fixtures/real-clis/with-fake-anthropic-api.mjs')

const run = promisify(execFile)

const held = disposedAfterEach()

/** Claude Code with a temp CLAUDE_CONFIG_DIR (also its HOME), in a network namespace of its own. */
async function claude(bin: string, args: string[], env: Record<string, string>, cwd: string) {
  const [command, argv] = offline(bin, args)
  return run(command, argv, { cwd, env, timeout: 120_000 })
}

describe('the real Claude Code', () => {
  it('`claude mcp list` with a temp CLAUDE_CONFIG_DIR reports shellgate connected', {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('claude')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    held.hub = await startTestHub()
    held.agent = await makeAgentHome('sg-claude-config-')
    await writeFile(
      join(held.agent.home, '.claude.json'),
      JSON.stringify({
        mcpServers: {
          shellgate: {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', TSX_LOADER, CLI_ENTRY, 'mcp'],
            env: { SHELLGATE_HOME: held.hub.home, SHELLGATE_NO_OPEN: '1' },
          },
        },
      }),
    )
    const env = {
      PATH: held.agent.path,
      HOME: held.agent.home,
      CLAUDE_CONFIG_DIR: held.agent.home,
      ...OFFLINE_ENV,
    }
    const { stdout } = await claude(cli.bin, ['mcp', 'list'], env, held.hub.workspace)
    expect(stdout).toMatch(/^shellgate: .* - ✔ Connected$/m)
  })

  it('reads what `shellgate connect claude-code --write` wrote: shellgate connected, its settings and hook valid', {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('claude')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    held.hub = await startTestHub()
    held.agent = await makeAgentHome('sg-claude-config-')
    // SHELLGATE_HOME is not HOME/.shellgate: a client that dropped it would reach another held.hub.
    const env = {
      PATH: held.agent.path,
      HOME: held.agent.home,
      CLAUDE_CONFIG_DIR: held.agent.home,
      SHELLGATE_HOME: held.hub.home,
      SHELLGATE_NO_OPEN: '1',
      ...OFFLINE_ENV,
    }
    await connectWrite('claude-code', env)

    const list = await claude(cli.bin, ['mcp', 'list'], env, held.hub.workspace)
    expect(list.stdout).toMatch(/^shellgate: shellgate mcp - ✔ Connected$/m)
    expect(existsSync(join(held.agent.home, '.shellgate'))).toBe(false)

    // `claude doctor` validates every settings file, hooks included, without a session.
    const doctor = await claude(cli.bin, ['doctor'], env, held.hub.workspace)
    expect(doctor.stdout).toContain('Claude Code doctor')
    expect(doctor.stdout).not.toContain('Invalid settings')
    // ...and it does report a hook it cannot load, so the line above has teeth.
    await writeFile(
      join(held.agent.home, 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'shell' }] }] } }),
    )
    const broken = await claude(cli.bin, ['doctor'], env, held.hub.workspace)
    expect(broken.stdout).toMatch(/Invalid settings\n.*settings\.json › hooks\.PreToolUse\.0\.hooks\.0\.type/)
  })

  it("sends its own Bash tool through connect's PreToolUse hook: the person allows one command, denies another", {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('claude')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    const testHub = await startTestHub()
    held.hub = testHub
    held.agent = await makeAgentHome('sg-claude-config-')
    const home = held.agent.home
    const env = {
      PATH: held.agent.path,
      HOME: home,
      CLAUDE_CONFIG_DIR: home,
      SHELLGATE_HOME: testHub.home,
      SHELLGATE_NO_OPEN: '1',
      ANTHROPIC_API_KEY: 'not-a-key: the API is a local stand-in',
      ...OFFLINE_ENV,
    }
    await connectWrite('claude-code', env)

    /** One headless turn whose model asks Bash for `command`; the person answers its card in the held.hub. */
    const turn = async (
      command: string,
      answer: { kind: 'allow_once' } | { kind: 'deny'; message: string },
    ) => {
      const resultsFile = join(home, `results-${Date.now()}.json`)
      const [bin, argv] = scriptedTurn(WITH_FAKE_API, resultsFile, command, [
        cli.bin,
        ...['-p', 'do the scripted step', '--output-format', 'json', '--model', 'claude-sonnet-4-5'],
      ])
      const finished = run(bin, argv, { cwd: testHub.workspace, env, timeout: 200_000 })
      await answerAgentCard(
        testHub,
        { agent: 'claude-code', command, description: 'the scripted step' },
        answer,
      )
      await finished
      return JSON.parse(await readFile(resultsFile, 'utf8')) as Array<{
        content?: unknown
        is_error?: boolean
      }>
    }

    const allowed = join(testHub.workspace, 'allowed-marker')
    const [ran] = await turn(`touch ${allowed} && echo made`, { kind: 'allow_once' })
    expect(existsSync(allowed)).toBe(true)
    expect(JSON.stringify(ran?.content)).toContain('made')

    const denied = join(testHub.workspace, 'denied-marker')
    const [blocked] = await turn(`touch ${denied}`, { kind: 'deny', message: 'use the build script instead' })
    expect(existsSync(denied)).toBe(false)
    expect(blocked?.is_error).toBe(true)
    expect(JSON.stringify(blocked?.content)).toContain('use the build script instead')
  })
})
