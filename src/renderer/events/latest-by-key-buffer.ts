/** 50 ms between flushes: at most 20 UI updates per second whatever the event rate. */
export const UI_FLUSH_INTERVAL_MS = 50

export interface LatestByKeyBuffer<K, V> {
  put(key: K, value: V): void
  dispose(): void
}

/**
 * Keeps only the newest value per key and hands the batch over at most once per interval, so a task
 * printing 50 MB costs the UI 20 renders a second, not one per chunk.
 */
export function createLatestByKeyBuffer<K, V>(
  flush: (batch: Map<K, V>) => void,
  intervalMs = UI_FLUSH_INTERVAL_MS,
): LatestByKeyBuffer<K, V> {
  let pending = new Map<K, V>()
  let timer: ReturnType<typeof setTimeout> | null = null
  return {
    put(key, value) {
      pending.set(key, value)
      if (timer !== null) return
      timer = setTimeout(() => {
        timer = null
        const batch = pending
        pending = new Map()
        flush(batch)
      }, intervalMs)
    },
    dispose() {
      if (timer !== null) clearTimeout(timer)
      timer = null
      pending = new Map()
    },
  }
}
