import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
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

/**
 * issue 20.2 with the real Codex and the hook `connect --write` installs: a terminal started by
 * exec_command (tty) and fed by write_stdin. Codex 0.171 sends the tty exec_command to hooks as
 * `Bash` (without its tty flag) and write_stdin to no hook at all, whatever the matcher (probed
 * with `*`, `.*` and `write_stdin`). What holds either way: the typed line never runs, because the
 * allowed command runs in Shellgate (a ticket), which reads nothing from the agent's terminal; and
 * if a Codex does send write_stdin to the hook, the hook judges it (never read-only).
 */
it('Codex: a line typed with write_stdin into a terminal the hook allowed never runs unseen', {
  timeout: 300_000,
}, async (context) => {
  const codex = DRIVERS.find((driver) => driver.cli === 'codex')
  if (!codex) throw new Error('no Codex driver')
  const cli = await realCliOrWhyNot('codex')
  if ('skip' in cli) return skipWithReason(context, cli.skip)
  const decided: string[] = []
  const testHub = await startTestHub({
    onAgentRequest: ({ method, params }) => {
      if (method === 'hooks.decide') decided.push(String((params as { command?: unknown }).command))
    },
  })
  held.hub = testHub
  held.agent = await makeAgentHome('sg-codex-stdin-')
  const mark = join(testHub.workspace, 'TYPED-MARK')
  const env = {
    PATH: held.agent.path,
    HOME: held.agent.home,
    SHELLGATE_HOME: testHub.home,
    SHELLGATE_NO_OPEN: '1',
    // Nobody answers a card here: an undecided hook answer comes at once.
    SHELLGATE_HOOK_WAIT_MS: '3000',
    ...codex.env(held.agent.home),
    ...OFFLINE_ENV,
    FAKE_THEN_TOOL: 'write_stdin',
    FAKE_THEN_INPUT: JSON.stringify({
      session_id: '{SESSION_ID}',
      chars: `touch ${mark}\n`,
      yield_time_ms: 500,
    }),
  }
  await connectWrite(codex.connect, env)
  const written = JSON.parse(
    await readFile(join(codex.env(held.agent.home).CODEX_HOME ?? '', 'hooks.json'), 'utf8'),
  )
  expect(written.hooks.PreToolUse[0].matcher).toBe('*')

  const resultsFile = join(held.agent.home, 'results.json')
  const [bin, argv] = scriptedTurn(codex.standIn, resultsFile, 'sleep 20', codex.argv(cli.bin), {
    input: { tty: true, yield_time_ms: 1_000 },
  })
  await run(bin, argv, { cwd: testHub.workspace, env, timeout: 200_000 })
  const outputs = JSON.parse(await readFile(resultsFile, 'utf8')) as { output: string }[]

  // The tty exec_command reached the hook and ran in Shellgate, in a terminal Codex kept open.
  expect(decided[0]).toBe('sleep 20')
  expect(outputs[0]?.output).toMatch(/session ID \d+/)
  // The model typed a line into it: it did not run, and if the hook saw it, it was not allowed.
  expect(outputs).toHaveLength(2)
  expect(existsSync(mark)).toBe(false)
  const typed = decided.slice(1)
  if (typed.length > 0) expect(outputs[1]?.output).not.toMatch(/Process exited with code 0/)
  context.annotate(
    typed.length > 0 ? `write_stdin reached the hook: ${typed.join(' | ')}` : 'write_stdin reached no hook',
  )
})
