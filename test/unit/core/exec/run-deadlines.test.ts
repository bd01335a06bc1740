import { describe, expect, it } from 'vitest'
import { clearDeadline, setDeadline } from '../../../../src/main/core/exec/run-deadlines'

/** Resolves with performance.now() when the deadline comes due. */
function dueAt(ms: number): { fired: Promise<number>; at: number; deadline: ReturnType<typeof setDeadline> } {
  let done!: (now: number) => void
  const fired = new Promise<number>((resolve) => {
    done = resolve
  })
  const deadline = setDeadline(ms, () => done(performance.now()))
  return { fired, at: deadline.at, deadline }
}

describe('run deadlines share one timer (issue 24.4)', () => {
  it('each fires once, in order of its time, never before it, whatever order they were set in', async () => {
    const order: number[] = []
    // 10 and 11 are 1 ms apart: a timer that fired both at 10 would have fired one early.
    const runs = [40, 10, 25, 11].map((ms) => {
      const run = dueAt(ms)
      void run.fired.then(() => order.push(ms))
      return run
    })
    const firedAt = await Promise.all(runs.map((run) => run.fired))
    const seen = JSON.stringify({ order, at: runs.map((run) => run.at), firedAt })
    expect(order, seen).toEqual([10, 11, 25, 40])
    for (const [index, run] of runs.entries()) expect(firedAt[index], seen).toBeGreaterThanOrEqual(run.at)
  })

  it('a cleared deadline never fires, even when the timer was armed for it', async () => {
    let clearedFired = false
    const cleared = setDeadline(5, () => {
      clearedFired = true
    })
    const later = dueAt(30)
    clearDeadline(cleared)
    await later.fired
    expect(clearedFired).toBe(false)
  })

  it('a deadline set by a handler that is firing comes due too', async () => {
    const second = await new Promise<number>((resolve) => {
      setDeadline(5, () => {
        const next = dueAt(5)
        void next.fired.then(resolve)
      })
    })
    expect(second).toBeGreaterThan(0)
  })
})
