import { existsSync } from 'node:fs'
import { getEventListeners } from 'node:events'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runProcess } from '../../../../src/main/core/exec'
import { ourZombies } from './process-checks'
import { tempDirsRemovedAfterEach } from './temp-dir'

// seed 004's terminal-state matrix: each cell checks output, code, flags and cleanup.
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const tempDir = tempDirsRemovedAfterEach()

function expectCleanedUp(signal?: AbortSignal) {
  if (signal) expect(getEventListeners(signal, 'abort')).toHaveLength(0)
  expect(ourZombies()).toEqual([])
}

describe('runProcess terminal states', () => {
  it('zero exit: both streams, code 0, no flags', async () => {
    const controller = new AbortController()
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'printf out; printf err >&2'] },
      { timeoutMs: 10_000, maxOutputBytes: 1024, env: PATH_ONLY, signal: controller.signal },
    )
    expect(result).toMatchObject({
      status: 'completed',
      stdout: 'out',
      stderr: 'err',
      exitCode: 0,
      exitSignal: null,
      timedOut: false,
      cancelled: false,
      truncated: false,
      spawnError: null,
    })
    expect(result.timings.firstByteMs).not.toBeNull()
    expectCleanedUp(controller.signal)
  })

  it('non-zero exit is data, not an error', async () => {
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'echo failing >&2; exit 3'] },
      { timeoutMs: 10_000, maxOutputBytes: 1024, env: PATH_ONLY },
    )
    expect(result).toMatchObject({ status: 'failed', exitCode: 3, exitSignal: null, stderr: 'failing\n' })
    expect(result.timedOut || result.cancelled || result.truncated).toBe(false)
    expectCleanedUp()
  })

  it('spawn failure resolves with the errno code (ENOENT, EACCES)', async () => {
    const missing = await runProcess(
      { file: join(tempDir(), 'no-such-program'), args: [] },
      { timeoutMs: 10_000, maxOutputBytes: 1024 },
    )
    expect(missing).toMatchObject({ status: 'spawn_error', exitCode: null, exitSignal: null, stdout: '' })
    expect(missing.spawnError?.code).toBe('ENOENT')

    // A directory cannot be executed: EACCES whatever user the tests run as.
    const notExecutable = await runProcess(
      { file: tempDir(), args: [] },
      { timeoutMs: 10_000, maxOutputBytes: 1024 },
    )
    expect(notExecutable.status).toBe('spawn_error')
    expect(notExecutable.spawnError?.code).toBe('EACCES')
    expectCleanedUp()
  })

  it('timeout: killed, exitCode null with the signal, output so far kept', async () => {
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'echo started; exec sleep 30'] },
      { timeoutMs: 1_000, maxOutputBytes: 1024, env: PATH_ONLY },
    )
    expect(result).toMatchObject({
      status: 'timed_out',
      timedOut: true,
      cancelled: false,
      exitCode: null,
      exitSignal: 'SIGTERM',
      stdout: 'started\n',
    })
    expect(result.timings.terminationWaitMs).not.toBeNull()
    expectCleanedUp()
  })

  it('pre-aborted signal: cancelled without spawning (the command never ran)', async () => {
    const marker = join(tempDir(), 'ran')
    const controller = new AbortController()
    controller.abort()
    const result = await runProcess(
      { file: 'touch', args: [marker] },
      { timeoutMs: 10_000, maxOutputBytes: 1024, env: PATH_ONLY, signal: controller.signal },
    )
    expect(result).toMatchObject({
      status: 'cancelled',
      cancelled: true,
      exitCode: null,
      stdout: '',
      stderr: '',
    })
    expect(existsSync(marker)).toBe(false)
    expectCleanedUp(controller.signal)
  })

  it('mid-run abort: cancelled, killed, listener removed', async () => {
    const controller = new AbortController()
    const ready = join(tempDir(), 'ready')
    const pending = runProcess(
      { file: 'sh', args: ['-c', 'echo up; touch "$1"; exec sleep 30', 'sh', ready] },
      { timeoutMs: 0, maxOutputBytes: 1024, env: PATH_ONLY, signal: controller.signal },
    )
    while (!existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 10))
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({
      status: 'cancelled',
      cancelled: true,
      timedOut: false,
      exitCode: null,
      exitSignal: 'SIGTERM',
      stdout: 'up\n',
    })
    expectCleanedUp(controller.signal)
  })

  it('truncation: the budget keeps the first bytes, the run still completes', async () => {
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'printf abcdef'] },
      { timeoutMs: 10_000, maxOutputBytes: 4, env: PATH_ONLY },
    )
    expect(result).toMatchObject({ status: 'completed', stdout: 'abcd', truncated: true, exitCode: 0 })
    expect(result.outputLimitReached).toBe(false)
    expectCleanedUp()
  })

  it('truncation with onOutputLimit terminate: the child is killed and the run fails', async () => {
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'printf abcdef; exec sleep 30'] },
      { timeoutMs: 0, maxOutputBytes: 4, env: PATH_ONLY, onOutputLimit: 'terminate' },
    )
    expect(result).toMatchObject({
      status: 'failed',
      stdout: 'abcd',
      truncated: true,
      outputLimitReached: true,
      exitCode: null,
      exitSignal: 'SIGTERM',
    })
    expectCleanedUp()
  })

  it('signal death not caused by us: exitSignal set, not reported as timeout or cancel', async () => {
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'kill -SEGV $$'] },
      { timeoutMs: 10_000, maxOutputBytes: 1024, env: PATH_ONLY },
    )
    expect(result).toMatchObject({
      status: 'failed',
      exitCode: null,
      exitSignal: 'SIGSEGV',
      timedOut: false,
      cancelled: false,
    })
    expectCleanedUp()
  })

  it('timeoutMs 0 means no timer, not an immediate timeout', async () => {
    const result = await runProcess(
      { file: 'sleep', args: ['0.2'] },
      { timeoutMs: 0, maxOutputBytes: 0, env: PATH_ONLY },
    )
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, timedOut: false })
  })
})
