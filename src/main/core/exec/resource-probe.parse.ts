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

/**
 * `ps -A -o pid= -o pgid= -o rss= -o time=` (macOS, following the run): the group's processes and
 * the tagged ones (`taggedPids`, from `ps -E`), each counted once.
 */
export function parsePsRunUsage(
  text: string,
  pgid: number,
  taggedPids: ReadonlySet<number>,
): GroupUsage | null {
  let processes = 0
  let rssBytes = 0
  let cpuMs = 0
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s*$/.exec(line)
    if (!match || (Number(match[2]) !== pgid && !taggedPids.has(Number(match[1])))) continue
    processes++
    rssBytes += Number(match[3]) * 1024
    cpuMs += parseClockDuration(match[4]!)
  }
  return processes > 0 ? { rssBytes, cpuMs, processes, partial: false } : null
}

/** `ps -E -A -ww -o pid= -o command=` (macOS): pids whose environment carries `NAME=value` exactly. */
export function parsePsTaggedPids(text: string, tag: string): Set<number> {
  const pids = new Set<number>()
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s/.exec(line)
    if (!match) continue
    const at = line.indexOf(tag)
    const after = line.charAt(at + tag.length)
    if (at !== -1 && (after === '' || after === ' ')) pids.add(Number(match[1]))
  }
  return pids
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
