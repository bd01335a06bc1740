import type { GroupUsage } from './resource-probe'
import type { ResourceSample } from './types'

/** seed 000: Bash commands are sampled every 15 s, at most 20 times; 3 failures in a row stop it. */
export const RESOURCE_SAMPLE_INTERVAL_MS = 15_000
export const RESOURCE_SAMPLE_MAX = 20
export const RESOURCE_PROBE_MAX_FAILURES = 3
const SAMPLE_TIMEOUT_MS = 1_000

export interface ResourceSamplerOptions {
  pid: number
  probe: (pid: number) => Promise<GroupUsage | null>
  onSample: (sample: ResourceSample) => void
  elapsedMs: () => number
  intervalMs?: number
}

/** Periodic group sampling for one run; `stop()` before the run settles so no sample comes after. */
export class ResourceSampler {
  private timer: NodeJS.Timeout | null = null
  private samples = 0
  private failures = 0
  private stopped = false

  constructor(private readonly options: ResourceSamplerOptions) {}

  start(): void {
    this.schedule()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(): void {
    if (this.stopped || this.samples >= RESOURCE_SAMPLE_MAX) return
    this.timer = setTimeout(() => void this.sample(), this.options.intervalMs ?? RESOURCE_SAMPLE_INTERVAL_MS)
  }

  private async sample(): Promise<void> {
    this.samples++
    const usage = await withTimeout(this.options.probe(this.options.pid), SAMPLE_TIMEOUT_MS)
    if (this.stopped) return
    if (usage) {
      this.failures = 0
      this.options.onSample({
        pid: this.options.pid,
        ...usage,
        elapsedMs: Math.round(this.options.elapsedMs()),
      })
    } else if (++this.failures >= RESOURCE_PROBE_MAX_FAILURES) {
      this.stop()
      return
    }
    this.schedule()
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms)
  })
  return Promise.race([promise.catch(() => null), timeout]).finally(() => clearTimeout(timer))
}
