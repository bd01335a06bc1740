import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  realCliOrWhyNot,
  scriptedTurn,
  skipWithReason,
  disposedAfterEach,
} from './real-clis'
import { DRIVERS } from './real-cli-drivers'
import { startTestHub } from './test-hub'

const run = promisify(execFile)

const held = disposedAfterEach()

describe.each(DRIVERS)('the real $cli gives its model what Shellgate’s MCP bash answers', (driver) => {
  it('the output, the background task id and the waiting-for-approval message', {
    timeout: 400_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot(driver.cli)
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    const testHub = await startTestHub()
    held.hub = testHub
    held.agent = await makeAgentHome(`sg-${driver.cli}-out-`)
    const home = held.agent.home
    const env = {
      PATH: held.agent.path,
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
