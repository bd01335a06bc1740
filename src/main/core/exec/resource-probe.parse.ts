/** Parsers for the tools the resource probe asks on macOS and Windows (pure, so tested on Linux). */

export interface GroupUsage {
  rssBytes: number
  cpuMs: number
  processes?: number
  partial?: boolean
}

/** `ps -A -o pgid= -o rss= -o time=` (macOS): rss in KiB, time as [[dd-]hh:]mm:ss[.ss]. */
export function parsePsGroupUsage(text: string, pgid: number): GroupUsage | null {
  let found = false
  let rssBytes = 0
  let cpuMs = 0
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s*$/.exec(line)
    if (!match || Number(match[1]) !== pgid) continue
    found = true
    rssBytes += Number(match[2]) * 1024
    cpuMs += parseClockDuration(match[3]!)
  }
  return found ? { rssBytes, cpuMs } : null
}

/** `tasklist /FI "PID eq N" /FO CSV /NH /V`: "Mem Usage" like `12,345 K`, "CPU Time" like `0:00:03`. */
export function parseTasklistCsv(text: string): GroupUsage | null {
  const line = text.split(/\r?\n/).find((row) => row.startsWith('"'))
  if (!line) return null
  const cells = [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((match) => match[1]!.replace(/""/g, '"'))
  if (cells.length < 8) return null
  const kib = Number(cells[4]!.replace(/[^\d]/g, ''))
  if (!Number.isFinite(kib)) return null
  return { rssBytes: kib * 1024, cpuMs: parseClockDuration(cells[7]!) }
}

function parseClockDuration(text: string): number {
  const [daysPart, clock] = text.includes('-') ? text.split('-', 2) : ['0', text]
  const parts = clock!.split(':').map(Number)
  let seconds = 0
  for (const part of parts) seconds = seconds * 60 + (Number.isFinite(part) ? part : 0)
  return Math.round((Number(daysPart) * 86_400 + seconds) * 1000)
}
