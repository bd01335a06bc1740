import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { createExecutionPort, runProcess } from '../../../../src/main/core/exec'
import { BoundedCollector } from '../../../../src/main/core/exec/bounded-collector'
import { runChild } from '../../../../src/main/core/exec/child-lifecycle'
import { nodeSpawn } from '../../../../src/main/core/exec/spawn-function'
import { planSpawn } from '../../../../src/main/core/exec/spawn-plan'
import type { ExecutionResult } from '../../../../src/main/core/exec/types'
import { openFdCount, ourZombies } from './process-checks'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const RACE_RUNS = 150
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

/**
 * Races observed at the lifecycle's one finalize step (issue 15.15): a promise can only resolve
 * once, so counting its callbacks proves nothing; counting finalize calls catches a second
 * settlement that would run its cleanup twice or resolve with a half-built outcome.
 */
async function raceOnce(options: { timeoutMs: number; abort?: 'on-spawn' | number }) {
  const controller = new AbortController()
  let finalized = 0
  let spawns = 0
  const plan = planSpawn(
    { mode: 'argv', file: 'true', args: [] },
    { platform: 'linux', env: PATH_ONLY, cwd: '/' },
  )
  const outcome = await runChild({
    plan,
    cwd: '/',
    env: PATH_ONLY,
    runId: `race-${Math.random()}`,
    platform: 'linux',
    spawnFile: nodeSpawn,
    output: {
      kind: 'pipe',
      collector: new BoundedCollector({ inlineLimitBytes: 64 }),
      onOutputLimit: 'truncate',
    },
    timeoutMs: options.timeoutMs,
    signal: controller.signal,
    profile: 'plain',
    hooks: {
      onSpawn: () => {
        spawns++
        if (options.abort === 'on-spawn') controller.abort()
        else if (typeof options.abort === 'number') setTimeout(() => controller.abort(), options.abort)
      },
    },
    sampleResources: false,
    onFinalize: () => finalized++,
  })
  // Anything that fires after settlement (a late timer, exit or abort) would finalize again.
  await new Promise((resolve) => setImmediate(resolve))
  return { outcome, finalized, spawns, listeners: getEventListeners(controller.signal, 'abort').length }
}

async function inParallel(count: number, run: (index: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) await run(next++)
    }),
  )
}

describe('races settle exactly once', () => {
  it(`exit vs timeout over ${RACE_RUNS} runs, four at a time`, async () => {
    await inParallel(RACE_RUNS, async (run) => {
      // `true` exits in about as long as the 1–3 ms timer takes to fire, so both orders occur.
      const { outcome, finalized, spawns } = await raceOnce({ timeoutMs: 1 + (run % 3) })
      expect(finalized).toBe(1)
      expect(spawns).toBe(1)
      if (outcome.timedOut) expect(outcome.exitCode).toBeNull()
      else expect(outcome.exitCode).toBe(0)
    })
    expect(ourZombies()).toEqual([])
  }, 60_000)

  it(`exit vs abort over ${RACE_RUNS} runs, four at a time`, async () => {
    await inParallel(RACE_RUNS, async (run) => {
      const { outcome, finalized, listeners } = await raceOnce({
        timeoutMs: 0,
        abort: run % 2 === 0 ? 'on-spawn' : run % 4,
      })
      expect(finalized).toBe(1)
      expect(listeners).toBe(0)
      if (outcome.cancelled) expect(outcome.exitCode).toBeNull()
      else expect(outcome.exitCode).toBe(0)
    })
    expect(ourZombies()).toEqual([])
  }, 60_000)

  it('the port turns each outcome into one coherent result', async () => {
    const port = createExecutionPort()
    for (let run = 0; run < 20; run++) {
      const result = await port.execute({
        command: { mode: 'argv', file: 'true', args: [] },
        cwd: '/',
        env: PATH_ONLY,
        timeoutMs: 1 + (run % 3),
      })
      expectCoherent(result, ['completed', 'timed_out'])
    }
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
