import type { ChildRunSpec } from './child-run-types'
import type { OutputFile } from './file-output'
import { OUTPUT_FILE_CHECK_INTERVAL_MS } from './file-output'
import { OutputTail, type Previews, previewsOf, TAIL_BYTES } from './output-tail'
import { probeProcessGroup } from './resource-probe'
import { ResourceSampler } from './resource-sampler'
import type { RunStopwatch } from './stopwatch'
import type { ExecutionHooks } from './types'
import { binaryOutputPlaceholder, looksBinary } from './utf8'

/** seed 000: progress starts after 2 s and repeats every 1 s. */
export const PROGRESS_DELAY_MS = 2_000
export const PROGRESS_INTERVAL_MS = 1_000

export interface RunWatchersOptions {
  hooks: ExecutionHooks
  watch: RunStopwatch
  /** File mode: the file to size-check and preview; pipe mode: null (output arrives via `noteOutput`). */
  file: OutputFile | null
  fileCapBytes: number
  /** Called once when the file grows past its cap. */
  onFileCapExceeded: () => void
  /** Bytes collected so far in pipe mode. */
  pipeBytes: () => number
  sampleResources: boolean
  resourceSampleIntervalMs?: number
  platform: NodeJS.Platform
  env: Record<string, string>
  /** The run tag: resource samples follow the run, not only the group. */
  runId?: string
}

/**
 * A run's watchers, or null when nothing would watch it: no progress hook, no output file, no
 * resource samples. Most runProcess calls have none, and then no chunk is copied into a preview
 * tail nobody reads (issue 24.4).
 */
export function watchersFor(
  spec: ChildRunSpec,
  watch: RunStopwatch,
  onFileCapExceeded: () => void,
  pipeBytes: () => number,
): RunWatchers | null {
  const { hooks, output, sampleResources } = spec
  const file = output.kind === 'file' ? output.file : null
  if (!hooks.onProgress && !file && !(sampleResources && hooks.onResourceSample)) return null
  return new RunWatchers({
    hooks,
    watch,
    file,
    fileCapBytes: output.kind === 'file' ? output.capBytes : 0,
    onFileCapExceeded,
    pipeBytes,
    sampleResources,
    resourceSampleIntervalMs: spec.resourceSampleIntervalMs,
    platform: spec.platform,
    // The probe's tools (WMIC, PowerShell, tasklist) come from the host's SystemRoot, like taskkill.
    env: (spec.hostEnv ?? process.env) as Record<string, string>,
    runId: spec.runId,
  })
}

/**
 * Everything that watches a running child without deciding its fate: progress previews, the
 * output file's size guard and resource samples. `stop()` before settlement, so no hook fires after.
 */
export class RunWatchers {
  private readonly tail = new OutputTail()
  private readonly timers = new Set<NodeJS.Timeout>()
  private sampler: ResourceSampler | null = null
  private lastOutputAt: number | null = null
  private outputSinceTick = false
  private lastFileSize = 0
  private stopped = false
  /** Pipe mode: the first 4 KiB, to tell binary output from text as the result will. */
  private head = Buffer.alloc(0)
  /** Once binary, always binary: a tail that happens to hold no NUL is still not text. */
  private binary = false

  constructor(private readonly options: RunWatchersOptions) {}

  start(pid: number): void {
    // Nothing but onProgress reads a progress tick: without it, no timer (a run of `true` would
    // pay for its setup and removal, issue 24.4). File mode's size guard keeps its own cadence.
    if (this.options.hooks.onProgress) this.after(PROGRESS_DELAY_MS, () => this.reportProgress())
    if (this.options.file) this.every(OUTPUT_FILE_CHECK_INTERVAL_MS, () => this.checkFileSize())
    const onResourceSample = this.options.hooks.onResourceSample
    if (this.options.sampleResources && onResourceSample) {
      const { platform, env, runId } = this.options
      const known = new Map<number, string>()
      this.sampler = new ResourceSampler({
        pid,
        probe: (target) => probeProcessGroup(target, { platform, env, runId, known }),
        onSample: onResourceSample,
        elapsedMs: () => this.options.watch.sinceSpawn(),
        intervalMs: this.options.resourceSampleIntervalMs,
      })
      this.sampler.start()
    }
  }

  /** Pipe mode: every chunk, for the preview tail and the time of the last output. */
  noteOutput(chunk: Buffer): void {
    // No clock read per chunk (issue 15.9: it was the collector's largest own cost); the time of
    // the last output is taken at the next progress tick, so it is exact to the second.
    this.outputSinceTick = true
    this.tail.push(chunk)
    if (this.head.length < TAIL_BYTES)
      this.head = Buffer.concat([this.head, chunk.subarray(0, TAIL_BYTES - this.head.length)])
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    this.sampler?.stop()
  }

  private checkFileSize(): void {
    const file = this.options.file
    if (!file || this.stopped) return
    const size = file.size()
    if (size !== this.lastFileSize) {
      this.lastFileSize = size
      this.lastOutputAt = this.options.watch.sinceSpawn()
    }
    if (size > this.options.fileCapBytes) this.options.onFileCapExceeded()
  }

  private reportProgress(): void {
    const onProgress = this.options.hooks.onProgress
    if (this.stopped) return
    if (this.outputSinceTick) {
      this.outputSinceTick = false
      this.lastOutputAt = this.options.watch.sinceSpawn()
    }
    if (onProgress) {
      const file = this.options.file
      if (file) this.checkFileSize()
      if (this.stopped) return
      onProgress({
        elapsedMs: Math.round(this.options.watch.sinceSpawn()),
        totalBytes: file ? this.lastFileSize : this.options.pipeBytes(),
        lastOutputAt: this.lastOutputAt === null ? null : Math.round(this.lastOutputAt),
        ...this.previews(),
      })
    }
    this.after(PROGRESS_INTERVAL_MS, () => this.reportProgress())
  }

  /**
   * Binary output (a NUL in its first 4 KiB or in the tail) is never shown raw: the UI's live tail
   * would get control bytes. The placeholder is the one the model sees (issue 15.8).
   */
  private previews(): Previews {
    const file = this.options.file
    const tail = file ? file.tail() : this.tail.bytes()
    this.binary ||= looksBinary(file ? file.head() : this.head) || tail.includes(0)
    if (!this.binary) return previewsOf(tail)
    const placeholder = binaryOutputPlaceholder(file ? this.lastFileSize : this.options.pipeBytes())
    return { preview5: placeholder, preview100: placeholder }
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      action()
    }, ms)
    this.timers.add(timer)
  }

  private every(ms: number, action: () => void): void {
    this.after(ms, () => {
      action()
      if (!this.stopped) this.every(ms, action)
    })
  }
}
