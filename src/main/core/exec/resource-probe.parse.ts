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
 * `ps -A -o pid= -o pgid= -o rss= -o time= -o lstart=` (macOS, following the run): the group's
 * processes and the tagged ones (`taggedPids`, from `ps -E`), each counted once. `known` (pid →
 * start time, kept by the caller across samples) makes the sample partial when a process counted
 * before is still the same process but neither in the group nor tagged now, as on Linux.
 */
export function parsePsRunUsage(
  text: string,
  pgid: number,
  taggedPids: ReadonlySet<number>,
  known: Map<number, string> = new Map(),
): GroupUsage | null {
  let rssBytes = 0
  let cpuMs = 0
  const started = new Map<number, string>()
  const counted = new Set<number>()
  for (const line of text.split('\n')) {
    // lstart ("Tue Dec  1 13:15:46 2026") is last because it holds spaces.
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)(?:\s+(.*?))?\s*$/.exec(line)
    if (!match) continue
    const pid = Number(match[1])
    const start = match[5] ?? ''
    started.set(pid, start)
    if (Number(match[2]) !== pgid && !taggedPids.has(pid)) continue
    counted.add(pid)
    known.set(pid, start)
    rssBytes += Number(match[3]) * 1024
    cpuMs += parseClockDuration(match[4]!)
  }
  let partial = false
  for (const [pid, start] of known) {
    if (counted.has(pid)) continue
    if (started.get(pid) === start) partial = true
    else known.delete(pid)
  }
  return counted.size > 0 ? { rssBytes, cpuMs, processes: counted.size, partial } : null
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

/** One row of Win32_Process, as the Windows probe needs it. */
export interface Win32ProcessRow {
  pid: number
  parentPid: number
  /** Null when the tool gave none (the Idle process, or a process it could not open). */
  workingSetBytes: number | null
  /** Kernel + user time, in ms (Win32_Process gives 100 ns units); null when not given. */
  cpuMs: number | null
  /** Creation time in µs since 1970 UTC; null when not given or not readable. */
  createdMicros: number | null
}

const WIN32_PROCESS_COLUMNS = [
  'processid',
  'parentprocessid',
  'workingsetsize',
  'kernelmodetime',
  'usermodetime',
  'creationdate',
] as const

/**
 * Win32_Process as CSV, from either `WMIC.exe process get … /format:csv` (columns sorted by name
 * after a `Node` column, unquoted, `\r\r\n` line ends, CreationDate in DMTF form) or PowerShell's
 * `ConvertTo-Csv` (every field quoted, CreationDate as a FILETIME number). Columns are found by
 * header name. Null when no header names all six columns (the tool printed an error instead).
 */
export function parseWin32ProcessCsv(text: string): Win32ProcessRow[] | null {
  // Decoded from UTF-16 as UTF-8 (a tool writing to a file-like pipe), ASCII keeps a NUL after each
  // character and the BOM turns into U+FEFF or U+FFFD: dropping those recovers the ASCII text.
  const lines = text
    .replace(/\u0000/g, '')
    .replace(/^[\uFEFF\uFFFD]+/, '')
    .split(/\r*\n/)
    .map((line) => line.replace(/\r+$/, ''))
    .filter((line) => line.trim() !== '')
  const headerAt = lines.findIndex((line) => {
    const names = splitCsvLine(line).map((name) => name.trim().toLowerCase())
    return WIN32_PROCESS_COLUMNS.every((column) => names.includes(column))
  })
  if (headerAt === -1) return null
  const names = splitCsvLine(lines[headerAt]!).map((name) => name.trim().toLowerCase())
  const at = Object.fromEntries(WIN32_PROCESS_COLUMNS.map((column) => [column, names.indexOf(column)]))
  const rows: Win32ProcessRow[] = []
  for (const line of lines.slice(headerAt + 1)) {
    const cells = splitCsvLine(line).map((cell) => cell.trim())
    if (cells.length !== names.length) continue
    const pid = wholeNumber(cells[at.processid!]!)
    const parentPid = wholeNumber(cells[at.parentprocessid!]!)
    if (pid === null || parentPid === null) continue
    const kernel = wholeNumber(cells[at.kernelmodetime!]!)
    const user = wholeNumber(cells[at.usermodetime!]!)
    rows.push({
      pid,
      parentPid,
      workingSetBytes: wholeNumber(cells[at.workingsetsize!]!),
      cpuMs: kernel === null || user === null ? null : (kernel + user) / 10_000,
      createdMicros: parseWindowsCreationDate(cells[at.creationdate!]!),
    })
  }
  return rows
}

/** Unix epoch minus Windows epoch (1601-01-01), in µs. */
const FILETIME_EPOCH_OFFSET_MICROS = 11_644_473_600_000_000n

/**
 * A DMTF datetime (`20261201123456.123456+060`: local time, then the offset from UTC in minutes)
 * or a FILETIME (100 ns units since 1601 UTC), as µs since 1970 UTC. Null when it is neither.
 */
export function parseWindowsCreationDate(text: string): number | null {
  const dmtf = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\.(\d{6})([+-])(\d{3})$/.exec(text)
  if (dmtf) {
    const [year, month, day, hour, minute, second, micros, sign, offset] = dmtf.slice(1)
    const localMs = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!)
    const offsetMicros = (sign === '-' ? -1 : 1) * Number(offset) * 60_000_000
    return localMs * 1000 + Number(micros) - offsetMicros
  }
  // A FILETIME needs 57 bits: BigInt keeps it exact until it is µs since 1970, which fits a double.
  if (/^\d{1,20}$/.test(text) && text !== '0')
    return Number(BigInt(text) / 10n - FILETIME_EPOCH_OFFSET_MICROS)
  return null
}

/** One CSV line: fields optionally in double quotes, `""` inside quotes is one quote. */
function splitCsvLine(line: string): string[] {
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!
    if (quoted) {
      if (char !== '"') cell += char
      else if (line[index + 1] === '"') {
        cell += '"'
        index++
      } else quoted = false
    } else if (char === '"') quoted = true
    else if (char === ',') {
      cells.push(cell)
      cell = ''
    } else cell += char
  }
  cells.push(cell)
  return cells
}

function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text) ? Number(text) : null
}
