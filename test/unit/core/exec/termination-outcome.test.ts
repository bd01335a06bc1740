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
      const budget = 5 + (index % 8)
      const controller = new AbortController()
      const cancel = index % 2 === 1
      if (cancel) setTimeout(() => controller.abort(), budget)
      return {
        command:
          index % 4 < 2
            ? { mode: 'argv', file: '/bin/sh', args: ['-c', 'sleep 0.008'] }
            : { mode: 'shell', command: 'sleep 0.008; exit 3', shellProfile: 'posix-bash' },
        cwd: tmpdir(),
        env: PATH_ONLY,
        timeoutMs: cancel ? 0 : budget,
        signal: controller.signal,
      }
    })
    const terminated = results.filter((r) => r.status === 'timed_out' || r.status === 'cancelled')
    expect(terminated.length).toBeGreaterThan(RUNS / 10)
    for (const result of terminated) {
      expect(result.exitCode).toBeNull()
      expect(result.termination?.signal).toMatch(/^SIG(TERM|KILL)$/)
      // Either the signal it died of, or the field saying it exited by itself first, and how.
      if (result.exitSignal === null) {
        expect(result.termination).toMatchObject({ exitedOnItsOwn: true })
        expect([0, 3]).toContain(result.termination?.ownExitCode)
      } else {
        expect(result.termination?.exitedOnItsOwn).toBe(false)
      }
    }
    // A run that completed by itself was not terminated, and says nothing about a kill.
    for (const result of results.filter((r) => r.status === 'completed' || r.status === 'failed')) {
      expect(result.termination).toBeNull()
    }
  }, 60_000)

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
      expect(result).toMatchObject({ status: 'cancelled', exitCode: null, exitSignal: null })
      expect(result.termination).toMatchObject({ signal: 'SIGTERM', exitedOnItsOwn: true, ownExitCode: 7 })
    } finally {
      controller.abort()
      await pending
      rmSync(dir, { recursive: true, force: true })
    }
  }, 20_000)
})
