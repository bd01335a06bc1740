import type { ExecutionTimings } from './types'

/** Monotonic timestamps for one run; every phase is measured from the same clock. */
export class RunStopwatch {
  private readonly startedAt = performance.now()
  private spawnedAt: number | null = null
  private firstByteAt: number | null = null
  private exitedAt: number | null = null
  private terminationAt: number | null = null

  spawned(): void {
    this.spawnedAt ??= performance.now()
  }

  output(): void {
    this.firstByteAt ??= performance.now()
  }

  terminationRequested(): void {
    this.terminationAt ??= performance.now()
  }

  exited(): void {
    this.exitedAt ??= performance.now()
  }

  /** ms since the child was spawned (since the call when it never was). */
  sinceSpawn(): number {
    return performance.now() - (this.spawnedAt ?? this.startedAt)
  }

  result(): ExecutionTimings {
    const now = performance.now()
    const spawnedAt = this.spawnedAt ?? now
    const endedAt = this.exitedAt ?? now
    return {
      spawnMs: round(spawnedAt - this.startedAt),
      firstByteMs: this.firstByteAt === null ? null : round(this.firstByteAt - spawnedAt),
      runMs: round(endedAt - spawnedAt),
      terminationWaitMs: this.terminationAt === null ? null : round(endedAt - this.terminationAt),
      totalMs: round(now - this.startedAt),
    }
  }
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 100) / 100)
}
