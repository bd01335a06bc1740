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
import { startTestHub } from './test-hub'

const WITH_FAKE_API = resolve('test/fixtures/real-clis/with-fake-gemini-api.mjs')

const run = promisify(execFile)

const held = disposedAfterEach()

describe('the real Gemini CLI reads what `shellgate connect gemini --write` wrote', () => {
  it('`gemini mcp list` starts shellgate mcp from it and reports Connected, with no configuration error', {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('gemini')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    held.hub = await startTestHub()
    held.agent = await makeAgentHome('sg-gemini-home-')
    // SHELLGATE_HOME is not HOME/.shellgate: a client that dropped it would reach another held.hub.
    const env = {
      PATH: held.agent.path,
      HOME: held.agent.home,
      GEMINI_CLI_HOME: held.agent.home,
      SHELLGATE_HOME: held.hub.home,
      SHELLGATE_NO_OPEN: '1',
      // Gemini starts no MCP server in a folder the person has not trusted; this is its documented
      // way to trust the workspace for one run (the interactive CLI asks instead).
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      ...OFFLINE_ENV,
    }
    await connectWrite('gemini', env)
    const settings = join(held.agent.home, '.gemini', 'settings.json')
    const listMcp = async () => {
      const [command, argv] = offline(cli.bin, ['mcp', 'list'])
      const { stdout, stderr } = await run(command, argv, { cwd: held.hub?.workspace, env, timeout: 120_000 })
      return `${stdout}\n${stderr}`
    }

    const output = await listMcp()
    expect(output).toMatch(/^✓ shellgate: shellgate mcp \(stdio\) - Connected$/m)
    // Gemini validates the whole settings file, the BeforeTool hook included, before it lists.
    expect(output).not.toContain('Invalid configuration')
    expect(existsSync(join(held.agent.home, '.shellgate'))).toBe(false)

    // ...and it does name a hook entry it rejects, so the line above has teeth.
    const written = JSON.parse(await readFile(settings, 'utf8'))
    written.hooks.BeforeTool[0].hooks[0].timeout = 'ten minutes'
    await writeFile(settings, JSON.stringify(written))
    expect(await listMcp()).toMatch(
      /Invalid configuration in .*settings\.json[\s\S]*hooks\.BeforeTool\[0\]\.hooks\[0\]\.timeout/,
    )
  })

  it("sends its own run_shell_command through Shellgate's BeforeTool hook: the person allows one, denies another", {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('gemini')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    const testHub = await startTestHub()
    held.hub = testHub
    held.agent = await makeAgentHome('sg-gemini-home-')
    const home = held.agent.home
    const env = {
      PATH: held.agent.path,
      HOME: home,
      GEMINI_CLI_HOME: home,
      SHELLGATE_HOME: testHub.home,
      SHELLGATE_NO_OPEN: '1',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_API_KEY: 'not-a-key: the API is a local stand-in',
      ...OFFLINE_ENV,
    }
    await connectWrite('gemini', env)
    // The person's own choice of sign-in, as Gemini's first run records it.
    const settings = join(home, '.gemini', 'settings.json')
    const written = JSON.parse(await readFile(settings, 'utf8'))
    await writeFile(
      settings,
      JSON.stringify({ ...written, security: { auth: { selectedType: 'gemini-api-key' } } }),
    )

    /** One headless turn whose model asks for `command`; the person answers its card in the held.hub. */
    const turn = async (
      command: string,
      answer: { kind: 'allow_once' } | { kind: 'deny'; message: string },
    ) => {
      const resultsFile = join(home, `results-${Date.now()}.json`)
      const [bin, argv] = scriptedTurn(WITH_FAKE_API, resultsFile, command, [
        cli.bin,
        // --yolo: Gemini's own confirmation is off, so only Shellgate's hook stands in the way.
        ...[
          '-m',
          'gemini-2.5-flash',
          '-p',
          'do the scripted step',
          '--approval-mode',
          'yolo',
          '--output-format',
          'json',
        ],
      ])
      const finished = run(bin, argv, { cwd: testHub.workspace, env, timeout: 200_000 })
      await answerAgentCard(
        testHub,
        { agent: 'gemini-cli', command, description: 'the scripted step' },
        answer,
      )
      await finished
      return JSON.parse(await readFile(resultsFile, 'utf8')) as Array<{ response?: Record<string, unknown> }>
    }

    const allowed = join(testHub.workspace, 'allowed-marker')
    const [ran] = await turn(`touch ${allowed} && echo made`, { kind: 'allow_once' })
    expect(existsSync(allowed)).toBe(true)
    expect(JSON.stringify(ran?.response)).toContain('made')

    const denied = join(testHub.workspace, 'denied-marker')
    const [blocked] = await turn(`touch ${denied}`, { kind: 'deny', message: 'use the build script instead' })
    expect(existsSync(denied)).toBe(false)
    expect(String(blocked?.response?.error)).toContain('use the build script instead')
  })
})
