import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { createExecutionPort, runProcess } from '../../../../src/main/core/exec'
import type { ExecutionResult } from '../../../../src/main/core/exec/types'
import { openFdCount, ourZombies } from './process-checks'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const RACE_RUNS = 300
const LEAK_RUNS = 1000

/** A result is coherent when its flags, status and codes tell one story. */
function expectCoherent(result: ExecutionResult, allowed: string[]) {
  expect(allowed).toContain(result.status)
  if (result.status === 'completed') {
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false, exitSignal: null })
  } else {
    expect(result.exitCode).toBeNull()
  }
}

describe('races settle exactly once', () => {
  it(`exit vs timeout over ${RACE_RUNS} runs`, async () => {
    const port = createExecutionPort()
    for (let run = 0; run < RACE_RUNS; run++) {
      let spawns = 0
      // `true` exits in about as long as the 1–3 ms timer takes to fire, so both orders occur.
      const result = await port.execute(
        {
          command: { mode: 'argv', file: 'true', args: [] },
          cwd: '/',
          env: PATH_ONLY,
          timeoutMs: 1 + (run % 3),
        },
        { onSpawn: () => spawns++ },
      )
      expectCoherent(result, ['completed', 'timed_out'])
      expect(spawns).toBe(1)
    }
    expect(ourZombies()).toEqual([])
  })

  it(`exit vs abort over ${RACE_RUNS} runs`, async () => {
    const port = createExecutionPort()
    for (let run = 0; run < RACE_RUNS; run++) {
      const controller = new AbortController()
      const pending = port.execute(
        {
          command: { mode: 'argv', file: 'true', args: [] },
          cwd: '/',
          env: PATH_ONLY,
          signal: controller.signal,
        },
        {
          onSpawn: () => (run % 2 === 0 ? controller.abort() : setTimeout(() => controller.abort(), run % 4)),
        },
      )
      let settlements = 0
      const result = await pending.then((value) => {
        settlements++
        return value
      })
      expectCoherent(result, ['completed', 'cancelled'])
      expect(settlements).toBe(1)
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    }
    expect(ourZombies()).toEqual([])
  })
})

describe(`no listener, fd or zombie growth over ${LEAK_RUNS} runs`, () => {
  it('runProcess with one long-lived signal', async () => {
    const shared = new AbortController()
    // Warm up: the first runs open lazily-created handles (e.g. the /proc reader) that stay.
    await runProcess({ file: 'true', args: [] }, { timeoutMs: 5_000, maxOutputBytes: 64, env: PATH_ONLY })
    const fdsBefore = openFdCount()
    const resourcesBefore = process.getActiveResourcesInfo().length
    for (let run = 0; run < LEAK_RUNS; run++) {
      const result = await runProcess(
        { file: 'true', args: [] },
        { timeoutMs: 5_000, maxOutputBytes: 64, env: PATH_ONLY, signal: shared.signal },
      )
      expect(result.status).toBe('completed')
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0)
    expect(openFdCount()).toBe(fdsBefore)
    expect(ourZombies()).toEqual([])
    // No timer or child handle outlives its run.
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(resourcesBefore)
  }, 120_000)

  it('the ExecutionPort through timeouts, cancels and Bash file mode, where the killers and watchers run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shellgate-leaks-'))
    const port = createExecutionPort()
    const shared = new AbortController()
    const runOnce = async (run: number) => {
      const kind = run % 3
      const controller = new AbortController()
      const pending = port.execute({
        command: {
          mode: 'shell',
          command: kind === 2 ? 'echo x; sleep 5 & true' : 'sleep 5',
          shellProfile: 'posix-bash',
        },
        cwd: dir,
        env: PATH_ONLY,
        timeoutMs: kind === 0 ? 30 : 0,
        signal: kind === 1 ? controller.signal : shared.signal,
        output: { mode: 'file', outputPath: join(dir, `out-${run % 4}.log`) },
      })
      if (kind === 1) setTimeout(() => controller.abort(), 20)
      return pending
    }
    await runOnce(0)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const fdsBefore = openFdCount()
    // Fewer runs than the happy-path loop: each one here waits for a real timeout, cancel or sweep.
    for (let run = 0; run < 120; run++) {
      const result = await runOnce(run)
      expect(result.status).toBe(['timed_out', 'cancelled', 'completed'][run % 3])
    }
    // Termination and the leftover sweep finish after settlement; give them their grace.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0)
    expect(openFdCount()).toBeLessThanOrEqual(fdsBefore)
    expect(ourZombies()).toEqual([])
    rmSync(dir, { recursive: true, force: true })
  }, 120_000)
})
