const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const

export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`
}

/** 850 ms, 12.3 s, 4 min 05 s, 2 h 03 min */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`
  const seconds = Math.floor(ms / 1_000)
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`
  return `${Math.floor(seconds / 3_600)} h ${String(Math.floor(seconds / 60) % 60).padStart(2, '0')} min`
}

/** Ages tick once a second, so below that "just now" is the honest reading. */
export function formatAge(ms: number | null): string {
  if (ms === null) return 'no output yet'
  return ms < 1_000 ? 'just now' : `${formatDuration(ms)} ago`
}

export function formatTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString()
}
