import { statOutputFile } from '../exec/output-file-read'
import type { OutputFileRef } from '../exec/types'
import { readOutputTail } from './output-file-range'
import { UI_TAIL_BYTES } from './task-registry'

/** One poll per 50 ms: a live tail costs the UI at most ~20 events per second, however fast the child prints. */
export const FOLLOW_INTERVAL_MS = 50

export interface OutputUpdate {
  totalBytes: number
  /** The last UI_TAIL_BYTES of the file (never half a character). */
  tail: string
}

export interface OutputFollower {
  stop(): void
  /** Emits once more if the file changed since the last update (call after the process ended). */
  flush(): Promise<void>
}

/**
 * Follows a growing output file by polling its size: an update is emitted only when the size changed,
 * so a quiet task costs one stat per interval and a chatty one is coalesced to the interval.
 */
export function followOutputFile(
  file: OutputFileRef,
  listener: (update: OutputUpdate) => void,
  options: { intervalMs?: number; tailBytes?: number } = {},
): OutputFollower {
  const intervalMs = options.intervalMs ?? FOLLOW_INTERVAL_MS
  const tailBytes = options.tailBytes ?? UI_TAIL_BYTES
  let lastSize = 0
  let stopped = false
  let polling: Promise<void> = Promise.resolve()

  const poll = async () => {
    const stats = await statOutputFile(file)
    if (stopped || !stats || stats.size === lastSize) return
    const slice = await readOutputTail(file, tailBytes)
    if (stopped || slice.size === lastSize) return
    lastSize = slice.size
    listener({ totalBytes: slice.size, tail: slice.text })
  }

  // One poll at a time: a slow disk must not stack reads up.
  const tick = () => {
    polling = polling.then(poll).catch(() => {})
  }
  const timer = setInterval(tick, intervalMs)
  tick()

  return {
    stop() {
      stopped = true
      clearInterval(timer)
    },
    async flush() {
      tick()
      await polling
    },
  }
}
