import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { openSync, readSync } from 'node:fs'
import { taggedOnceSettled } from './mid-exec-environ'
import { environAnswer } from './proc-environ'
import { listProcPids, PROCESS_TABLE_TIMEOUT_MS } from './process-table'

/**
 * Every run carries this variable. A tree walk misses a process that `setsid`s away and is
 * re-parented to init; its environment still carries the tag, so the killer finds it anyway.
 * (A process that exec's with a scrubbed environment, e.g. `env -i`, loses the tag: this is a
 * net, not a sandbox.)
 */
export const RUN_MARKER_ENV_KEY = 'SHELLGATE_RUN_ID'

export function newRunId(): string {
  return randomUUID()
}

/** Pids whose initial environment carries `SHELLGATE_RUN_ID=<runId>` (excluding us). */
export async function findTaggedPids(runId: string, platform: NodeJS.Platform): Promise<number[]> {
  if (platform === 'linux') return settled(runId, scanTaggedProcfs(runId))
  if (platform === 'win32') return []
  return findTaggedPs(runId)
}

/** One synchronous pass over /proc: the tagged pids, and those whose environ read as empty. */
export interface TaggedScan {
  pids: number[]
  /** Maybe inside execve: only a second look tells (see `taggedOnceSettled`). */
  midExec: number[]
}

/**
 * `abovePid` skips every pid not above it: Linux hands out pids in rising order until pid_max
 * wraps, so a run's processes are all above its root's pid unless a wrap happened meanwhile. That
 * reads a handful of environ files instead of every process's, cheap enough to do after each run.
 */
export function scanTaggedProcfs(
  runId: string,
  abovePid = 0,
  last = abovePid > 0 ? lastPid() : null,
): TaggedScan {
  const entry = runEntry(runId)
  const scan: TaggedScan = { pids: [], midExec: [] }
  for (const pid of candidatePids(abovePid, last)) {
    if (pid === process.pid || pid <= abovePid) continue
    const answer = environAnswer(pid, entry)
    if (answer === 'holds') scan.pids.push(pid)
    else if (answer === 'empty') scan.midExec.push(pid)
  }
  return scan
}

/** The tagged pids of one pass, for a sampler that may miss a process caught mid-exec. */
export function findTaggedProcfs(runId: string, abovePid = 0, last?: number | null): number[] {
  return scanTaggedProcfs(runId, abovePid, last).pids
}

/** The scan's tagged pids plus those of its mid-exec pids that turn out tagged. */
export async function settled(runId: string, scan: TaggedScan): Promise<number[]> {
  if (scan.midExec.length === 0) return scan.pids
  return [...scan.pids, ...(await taggedOnceSettled(scan.midExec, runEntry(runId)))]
}

function runEntry(runId: string): string {
  return `${RUN_MARKER_ENV_KEY}=${runId}`
}

function findTaggedPs(runId: string): Promise<number[]> {
  const needle = `${RUN_MARKER_ENV_KEY}=${runId}`
  return new Promise((resolve) => {
    // macOS: `ps -E` appends each process's environment to its command column.
    execFile(
      'ps',
      ['-E', '-A', '-ww', '-o', 'pid=', '-o', 'command='],
      { timeout: PROCESS_TABLE_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, env: { LC_ALL: 'C' } },
      (error, stdout) => {
        if (error) return resolve([])
        const pids: number[] = []
        for (const line of stdout.split('\n')) {
          const match = /^\s*(\d+)\s/.exec(line)
          if (!match || Number(match[1]) === process.pid) continue
          const at = line.indexOf(needle)
          const after = line.charAt(at + needle.length)
          if (at !== -1 && (after === '' || after === ' ')) pids.push(Number(match[1]))
        }
        resolve(pids)
      },
    )
  })
}

/** Above this many pids since the root, listing /proc is cheaper than trying each pid. */
const PID_RANGE_PROBE_LIMIT = 256

/** The pids above `abovePid` that may exist: the range up to the kernel's last pid when it is short. */
function candidatePids(abovePid: number, last: number | null): Iterable<number> {
  if (last === null || last < abovePid || last - abovePid > PID_RANGE_PROBE_LIMIT) return listProcPids()
  return Array.from({ length: last - abovePid }, (_, index) => abovePid + 1 + index)
}

// Kept open: the look runs after every exit, and a pread of an open sysctl file costs a fraction
// of open + read + close. Reading at offset 0 regenerates the value each time.
let lastPidFd: number | null = null
const lastPidBuffer = Buffer.alloc(32)

function lastPid(): number | null {
  try {
    lastPidFd ??= openSync('/proc/sys/kernel/ns_last_pid', 'r')
    const length = readSync(lastPidFd, lastPidBuffer, 0, lastPidBuffer.length, 0)
    return decimalAt(lastPidBuffer, length)
  } catch {
    lastPidFd = null
    return null
  }
}

/** The decimal the file holds (digits, then a newline); null for anything else. A loop, not
 * toString + Number: this runs after every exit, where each native call costs (issue 24.4). */
function decimalAt(bytes: Buffer, length: number): number | null {
  let value = 0
  let digits = 0
  for (; digits < length; digits++) {
    const byte = bytes[digits]!
    if (byte < 0x30 || byte > 0x39) break
    value = value * 10 + byte - 0x30
  }
  const rest = length - digits
  if (digits === 0 || digits > 15 || rest > 1 || (rest === 1 && bytes[digits] !== 0x0a)) return null
  return value
}

export interface RunEscapees {
  pids: number[]
  /** Pids whose environ read as empty: maybe tagged processes inside execve (Linux only). */
  midExec: number[]
  /** False when the answer may have missed some (a pid wrap on Linux, or Windows, which has no tag). */
  complete: boolean
  /** No pid was handed out since the root's: the run forked nothing (Linux only). */
  noneForked: boolean
}

/**
 * Whether processes tagged with this run are still alive after its root exited: `setsid`
 * escapees, which left the group. When `complete` is false the caller sweeps anyway.
 */
export async function findRunEscapees(
  runId: string,
  rootPid: number,
  platform: NodeJS.Platform,
): Promise<RunEscapees> {
  if (platform === 'win32') return { pids: [], midExec: [], complete: false, noneForked: false }
  if (platform === 'linux') {
    const escapees = findRunEscapeesProcfs(runId, rootPid)
    return { ...escapees, pids: await settled(runId, escapees), midExec: [] }
  }
  return { pids: await findTaggedPs(runId), midExec: [], complete: true, noneForked: false }
}

/** Linux's look, synchronous: the run after each exit settles without a promise hop (issue 24.4). */
export function findRunEscapeesProcfs(runId: string, rootPid: number): RunEscapees {
  const last = lastPid()
  // No pid was handed out since the root's, by anyone: the run forked nothing, so it can have
  // left nothing behind, in its group or out of it (issue 24.4: most runs, and the cheapest look).
  if (last === rootPid) return { pids: [], midExec: [], complete: true, noneForked: true }
  // The kernel's last pid below the root's: the counter wrapped after the root was forked, so a
  // process of the run may have a lower pid and the look above the root may miss it. (A run
  // that forks a whole pid_max of processes and climbs back past the root is not seen as a wrap.)
  return {
    ...scanTaggedProcfs(runId, rootPid, last),
    complete: last !== null && last >= rootPid,
    noneForked: false,
  }
}
