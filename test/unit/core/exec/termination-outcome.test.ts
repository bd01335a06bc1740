import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ExecutionRequest, ExecutionResult } from '../../../../src/main/core/exec/types'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const port = createExecutionPort()
const RUNS = 200
const AT_ONCE = 4

/** `count` requests run `parallel` at a time, results in start order. */
async function runMany(count: number, parallel: number, request: (index: number) => ExecutionRequest) {
  const results: ExecutionResult[] = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const index = next++
      results[index] = await port.execute(request(index))
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return results
}

describe('a terminated run always says how the process died (issue 15.1)', () => {
  it(`over ${RUNS} runs, ${AT_ONCE} at a time, racing the timer or the abort against a command that ends by itself`, async () => {
    // The command ends about when its budget does, so each kind happens: killed by the signal,
    // finished first, and the race in which the timer fired but the shell exited before the TERM.
    const results = await runMany(RUNS, AT_ONCE, (index) => {
      const budget = 2 + (index % 8)
      const controller = new AbortController()
      const cancel = index % 2 === 1
      if (cancel) setTimeout(() => controller.abort(), budget)
      return {
        command:
          index % 4 < 2
            ? { mode: 'argv', file: '/bin/sh', args: ['-c', 'sleep 0.008'] }
            : // Outlives every budget, so a share of the runs is always killed whatever the load.
              { mode: 'shell', command: 'sleep 0.008; sleep 1; exit 3', shellProfile: 'posix-bash' },
        cwd: tmpdir(),
        env: PATH_ONLY,
        timeoutMs: cancel ? 0 : budget,
        signal: controller.signal,
      }
    })
    // issue 24.1: every result says what happened, its exit code or the signal that ended it.
    for (const result of results) {
      expect(result.exitCode !== null || result.exitSignal !== null, JSON.stringify(result)).toBe(true)
    }
    const terminated = results.filter((r) => r.status === 'timed_out' || r.status === 'cancelled')
    expect(terminated.length).toBeGreaterThan(RUNS / 10)
    for (const result of terminated) {
      expect(result.exitCode).toBeNull()
      expect(result.exitSignal).toMatch(/^SIG(TERM|KILL)$/)
      expect(result.termination?.signal).toMatch(/^SIG(TERM|KILL)$/)
      // It died of the signal, or answered it by exiting with a code of its own, which is kept.
      if (result.termination?.exitedOnItsOwn) expect([0, 3]).toContain(result.termination.ownExitCode)
      else expect(result.termination?.ownExitCode).toBeNull()
    }
    // A run that completed by itself (before any signal reached it, even when the timer had fired)
    // was not terminated: its own code, and nothing about a kill.
    for (const result of results.filter((r) => r.status === 'completed' || r.status === 'failed')) {
      expect(result.termination).toBeNull()
      expect([0, 3]).toContain(result.exitCode)
    }
  }, 60_000)

  it(`issue 24.1: ${RUNS} runs of sleep 0.099 under a 100 ms timeout, ${AT_ONCE} at a time, each say what happened`, async () => {
    // The issue's own race (sleep 0.99 under 1000 ms) at a tenth of the scale: the timer fires as
    // the shell is about to exit by itself. Either it completed (its exit code) or it was killed
    // (its signal): never timed_out with neither.
    const results = await runMany(RUNS, AT_ONCE, () => ({
      command: { mode: 'shell', command: 'sleep 0.099', shellProfile: 'posix-bash' },
      cwd: tmpdir(),
      env: PATH_ONLY,
      timeoutMs: 100,
    }))
    for (const result of results) {
      if (result.status === 'timed_out') {
        expect(result, JSON.stringify(result)).toMatchObject({ exitCode: null })
        expect(result.exitSignal).toMatch(/^SIG(TERM|KILL)$/)
      } else {
        expect(result, JSON.stringify(result)).toMatchObject({
          status: 'completed',
          exitCode: 0,
          termination: null,
        })
      }
    }
  }, 60_000)

  it('issue 24.1, deterministic: a process that exited before the timer could signal it completed, with its code', async () => {
    // The event loop is held while `true` runs and exits, so the timer and the exit are both due
    // when it resumes: timers run first, and the kill finds a zombie nobody has reaped yet.
    const pending = port.execute({
      command: { mode: 'argv', file: '/bin/sh', args: ['-c', 'exit 5'] },
      cwd: tmpdir(),
      env: PATH_ONLY,
      timeoutMs: 1,
    })
    const until = performance.now() + 300
    while (performance.now() < until) {
      // Busy on purpose: no timer or exit callback may run before both are due.
    }
    const result = await pending
    expect(result).toMatchObject({ status: 'failed', exitCode: 5, exitSignal: null, termination: null })
  })

  it('a process that answers the TERM by exiting with a code of its own says so every time, not only when a race happens', async () => {
    // Deterministic counterpart of the race above: the shell traps TERM and exits 7, so it never
    // dies of the signal, and the result must carry the field instead of a signal. The run is
    // cancelled once the trap is set (the shell says so with a file), never on a clock.
    const dir = mkdtempSync(join(tmpdir(), 'shellgate-trap-'))
    const controller = new AbortController()
    const pending = port.execute({
      command: {
        mode: 'shell',
        command: "trap 'exit 7' TERM; : > ready; sleep 30 & wait",
        shellProfile: 'posix-bash',
      },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
      signal: controller.signal,
    })
    try {
      while (!existsSync(join(dir, 'ready'))) await new Promise((resolve) => setTimeout(resolve, 10))
      controller.abort()
      const result = await pending
      // Ended by our TERM, which it answered with exit 7: the signal, and the code it chose.
      expect(result).toMatchObject({ status: 'cancelled', exitCode: null, exitSignal: 'SIGTERM' })
      expect(result.termination).toMatchObject({ signal: 'SIGTERM', exitedOnItsOwn: true, ownExitCode: 7 })
    } finally {
      controller.abort()
      await pending
      rmSync(dir, { recursive: true, force: true })
    }
  }, 20_000)
})
