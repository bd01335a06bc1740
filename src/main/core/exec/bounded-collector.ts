import { closeSync, constants, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export type StreamName = 'stdout' | 'stderr'

/** seed 000: pipe output kept inline up to 10 MiB; with persistence, up to 50 MiB on disk. */
export const INLINE_OUTPUT_LIMIT_BYTES = 10 * 1024 * 1024
export const PERSISTED_OUTPUT_LIMIT_BYTES = 50 * 1024 * 1024
const HEAD_SNIFF_BYTES = 4096
/** Shared by every new stream: a zero-length Buffer has nothing to mutate. */
const NO_BYTES = Buffer.alloc(0)

export interface CollectorOptions {
  /** Shared by stdout and stderr. */
  inlineLimitBytes: number
  persist?: { dir: string; runId: string; limitBytes: number }
}

interface StreamState {
  chunks: Buffer[]
  head: Buffer
  file: { fd: number; path: string } | null
  /** Some of this stream's bytes did not fit inline: its inline copy ends at a cut. */
  cut: boolean
}

/**
 * One byte budget for both streams, enforced as data arrives: only what fits is copied, so memory
 * never exceeds the budget whatever the child prints. With `persist`, each stream is also written
 * to its own 0600 file (from its first byte) once the inline budget overflows.
 */
export class BoundedCollector {
  totalBytes = 0
  truncated = false
  /** Why persisting stopped (could not create or write the file); null while it works. */
  persistError: string | null = null
  private inlineUsed = 0
  private persistedUsed = 0
  private closed = false
  private readonly streams: Record<StreamName, StreamState> = {
    stdout: { chunks: [], head: NO_BYTES, file: null, cut: false },
    stderr: { chunks: [], head: NO_BYTES, file: null, cut: false },
  }

  constructor(private readonly options: CollectorOptions) {}

  /** Returns false when some of this chunk was dropped (the budget is spent). */
  push(stream: StreamName, chunk: Buffer): boolean {
    if (this.closed || chunk.length === 0) return true
    this.totalBytes += chunk.length
    const state = this.streams[stream]
    if (state.head.length < HEAD_SNIFF_BYTES) {
      state.head = Buffer.concat([state.head, chunk.subarray(0, HEAD_SNIFF_BYTES - state.head.length)])
    }
    const room = Math.max(0, this.options.inlineLimitBytes - this.inlineUsed)
    const kept = Math.min(room, chunk.length)
    if (kept > 0) {
      // A partial slice is copied so the rest of the chunk's memory is not retained with it.
      state.chunks.push(kept === chunk.length ? chunk : Buffer.from(chunk.subarray(0, kept)))
      this.inlineUsed += kept
    }
    if (kept === chunk.length) {
      if (state.file) this.persist(state, chunk)
      return true
    }
    state.cut = true
    if (!this.options.persist) {
      this.truncated = true
      return false
    }
    if (this.persistError) {
      this.truncated = true
      return false
    }
    if (!state.file) {
      state.file = this.openPersistFile(stream)
      if (!state.file) {
        this.truncated = true
        return false
      }
      // The file holds the stream from its first byte: replay what was kept inline (except the
      // partial copy of this chunk, which is written whole below).
      for (const earlier of kept > 0 ? state.chunks.slice(0, -1) : state.chunks) this.persist(state, earlier)
    }
    this.persist(state, chunk)
    return !this.truncated
  }

  /** The inline bytes of one stream (the first bytes it printed, up to the shared budget). */
  bytes(stream: StreamName): Buffer {
    return Buffer.concat(this.streams[stream].chunks)
  }

  /** Nothing of this stream was kept inline (it printed nothing, or the budget was spent). */
  isEmpty(stream: StreamName): boolean {
    return this.streams[stream].chunks.length === 0
  }

  /** True when the stream's inline bytes stop at the budget rather than at the stream's end. */
  inlineCut(stream: StreamName): boolean {
    return this.streams[stream].cut
  }

  /** The first 4 KiB each stream printed, kept even when the inline budget is 0. */
  head(stream: StreamName): Buffer {
    return this.streams[stream].head
  }

  persistedPath(stream: StreamName): string | undefined {
    return this.streams[stream].file?.path
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    const { stdout, stderr } = this.streams
    if (stdout.file) closeSync(stdout.file.fd)
    if (stderr.file) closeSync(stderr.file.fd)
  }

  private persist(state: StreamState, chunk: Buffer): void {
    const limit = this.options.persist!.limitBytes
    const room = Math.max(0, limit - this.persistedUsed)
    const written = Math.min(room, chunk.length)
    if (written < chunk.length) this.truncated = true
    if (written === 0 || !state.file) return
    try {
      writeSync(state.file.fd, chunk, 0, written)
      this.persistedUsed += written
    } catch (error) {
      // ENOSPC and friends: keep running, stop persisting, and say why in the result.
      this.persistError ??= describeError(error)
      this.persistedUsed = limit
      this.truncated = true
    }
  }

  private openPersistFile(stream: StreamName): { fd: number; path: string } | null {
    const { dir, runId } = this.options.persist!
    const path = join(dir, `${runId}-${stream}.log`)
    // O_EXCL + O_NOFOLLOW: the run id is fresh, so anything already there is planted; refuse it.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)
    try {
      return { fd: openSync(path, flags, 0o600), path }
    } catch (error) {
      this.persistError ??= describeError(error)
      return null
    }
  }
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code
  const message = error instanceof Error ? error.message : String(error)
  // Node's fs errors already start with their code ("ENOSPC: no space left on device, write").
  return code && !message.startsWith(code) ? `${code}: ${message}` : message
}
