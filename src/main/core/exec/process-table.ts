import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/** One row of the process table; `startTime` tells a process apart from a later one reusing its pid. */
export interface ProcessEntry {
  pid: number
  ppid: number
  pgid: number
  /** 'Z' for a zombie: dead, only waiting to be reaped. */
  state: string
  startTime: string
}

/** seed 000: the process table is read with at most a 500 ms wait. */
export const PROCESS_TABLE_TIMEOUT_MS = 500

/** Linux reads /proc (no child process); other POSIX systems ask `ps`. Empty on failure. */
export async function readProcessTable(platform: NodeJS.Platform): Promise<ProcessEntry[]> {
  if (platform === 'linux') return readProcfsTable()
  return readPsTable()
}

function readProcfsTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const name of listProcPids()) {
    const entry = readProcfsEntry(name)
    if (entry) entries.push(entry)
  }
  return entries
}

export function listProcPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return []
  }
}

/** Parses /proc/PID/stat; null when the process is gone. */
export function readProcfsEntry(pid: number): ProcessEntry | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    pid,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTime: fields[19] ?? '',
  }
}

function readPsTable(): Promise<ProcessEntry[]> {
  return new Promise((resolve) => {
    execFile(
      'ps',
      ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid=', '-o', 'stat=', '-o', 'lstart='],
      { timeout: PROCESS_TABLE_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { LC_ALL: 'C' } },
      (error, stdout) => resolve(error ? [] : parsePsTable(stdout)),
    )
  })
}

export function parsePsTable(text: string): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s*(.*)$/.exec(line)
    if (!match) continue
    entries.push({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      state: match[4]!.charAt(0),
      startTime: match[5]!.trim(),
    })
  }
  return entries
}

/** Every process below `rootPid` in the table (children, grandchildren, …), not the root. */
export function descendantsOf(table: ProcessEntry[], rootPid: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>()
  for (const entry of table) {
    const siblings = children.get(entry.ppid)
    if (siblings) siblings.push(entry)
    else children.set(entry.ppid, [entry])
  }
  const found: ProcessEntry[] = []
  const queue = [rootPid]
  const seen = new Set(queue)
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue
      seen.add(child.pid)
      found.push(child)
      queue.push(child.pid)
    }
  }
  return found
}
