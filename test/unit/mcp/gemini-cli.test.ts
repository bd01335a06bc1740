import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type AgentHome,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  offline,
  realCliOrWhyNot,
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

describe('the real Gemini CLI reads what `shellgate connect gemini --write` wrote', () => {
  it('`gemini mcp list` starts shellgate mcp from it and reports Connected, with no configuration error', {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('gemini')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    hub = await startTestHub()
    agent = await makeAgentHome('sg-gemini-home-')
    // SHELLGATE_HOME is not HOME/.shellgate: a client that dropped it would reach another hub.
    const env = {
      PATH: agent.path,
      HOME: agent.home,
      GEMINI_CLI_HOME: agent.home,
      SHELLGATE_HOME: hub.home,
      SHELLGATE_NO_OPEN: '1',
      // Gemini starts no MCP server in a folder the person has not trusted; this is its documented
      // way to trust the workspace for one run (the interactive CLI asks instead).
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      ...OFFLINE_ENV,
    }
    await connectWrite('gemini', env)
    const settings = join(agent.home, '.gemini', 'settings.json')
    const listMcp = async () => {
      const [command, argv] = offline(cli.bin, ['mcp', 'list'])
      const { stdout, stderr } = await run(command, argv, { cwd: hub?.workspace, env, timeout: 120_000 })
      return `${stdout}\n${stderr}`
    }

    const output = await listMcp()
    expect(output).toMatch(/^✓ shellgate: shellgate mcp \(stdio\) - Connected$/m)
    // Gemini validates the whole settings file, the BeforeTool hook included, before it lists.
    expect(output).not.toContain('Invalid configuration')
    expect(existsSync(join(agent.home, '.shellgate'))).toBe(false)

    // ...and it does name a hook entry it rejects, so the line above has teeth.
    const written = JSON.parse(await readFile(settings, 'utf8'))
    written.hooks.BeforeTool[0].hooks[0].timeout = 'ten minutes'
    await writeFile(settings, JSON.stringify(written))
    expect(await listMcp()).toMatch(
      /Invalid configuration in .*settings\.json[\s\S]*hooks\.BeforeTool\[0\]\.hooks\[0\]\.timeout/,
    )
  })
})
