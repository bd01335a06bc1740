import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { listProcPids, readProcfsEntry } from './process-table'
import { findTaggedProcfs as findTaggedPids, RUN_MARKER_ENV_KEY } from './run-marker'
import {
  type GroupUsage,
  parsePsGroupUsage,
  parsePsRunUsage,
  parsePsTaggedPids,
} from './resource-probe.parse'
import { probeWindowsRun } from './resource-probe.win32'

export type { GroupUsage } from './resource-probe.parse'

/** seed 000 (设备探针): each sample may take at most 1 s. */
export const PROBE_TIMEOUT_MS = 1_000
/** USER_HZ is part of Linux's userspace ABI: /proc CPU times are always in 1/100 s. */
const LINUX_TICKS_PER_SECOND = 100

import type { ProbeCommandRunner } from './resource-probe-types'

export type { ProbeCommandRunner }

export interface ProbeOptions {
  platform: NodeJS.Platform
  env?: Record<string, string | undefined>
  run?: ProbeCommandRunner
  /** Linux and macOS: the run's SHELLGATE_RUN_ID, so processes that left the group (setsid) are counted too. */
  runId?: string
  /**
   * pid → start time of every process counted so far in this run, kept by the caller across
   * samples. Linux: one still running but not counted now makes the sample partial. Windows: one
   * still running is counted even when its parent died and it left the tree.
   */
  known?: Map<number, string>
  /** Windows: a monotonic clock in ms, so the tools share one budget (tests pass their own). */
  now?: () => number
}

/**
 * RSS and cumulative CPU of the run whose root is `pgid`: on Linux and macOS its process group
 * and the processes carrying its run tag; on Windows, which has neither, the root's process tree
 * (and processes an earlier sample counted), or the root alone, flagged `partial`, when no tool
 * could list the tree. Null when nothing of the run is running or the tool failed. Each sample
 * takes at most PROBE_TIMEOUT_MS.
 */
export async function probeProcessGroup(pgid: number, options: ProbeOptions): Promise<GroupUsage | null> {
  const run = options.run ?? execFileText
  if (options.platform === 'linux') return probeProcfs(pgid, options.runId, options.known ?? new Map())
  if (options.platform === 'win32')
    return probeWindowsRun(pgid, {
      env: options.env ?? {},
      run,
      known: options.known ?? new Map(),
      budgetMs: PROBE_TIMEOUT_MS,
      now: options.now ?? (() => performance.now()),
    })
  if (options.runId) {
    // Follow the run, not only the group: `ps -E` shows each process's environment, tag included.
    const tagged = parsePsTaggedPids(
      await run('ps', ['-E', '-A', '-ww', '-o', 'pid=', '-o', 'command='], PROBE_TIMEOUT_MS),
      `${RUN_MARKER_ENV_KEY}=${options.runId}`,
    )
    const usage = await run(
      'ps',
      ['-A', '-o', 'pid=', '-o', 'pgid=', '-o', 'rss=', '-o', 'time=', '-o', 'lstart='],
      PROBE_TIMEOUT_MS,
    )
    return parsePsRunUsage(usage, pgid, tagged, options.known ?? new Map())
  }
  const text = await run('ps', ['-A', '-o', 'pgid=', '-o', 'rss=', '-o', 'time='], PROBE_TIMEOUT_MS)
  return parsePsGroupUsage(text, pgid)
}

function probeProcfs(pgid: number, runId: string | undefined, known: Map<number, string>): GroupUsage | null {
  const tagged = runId ? new Set(findTaggedPids(runId)) : new Set<number>()
  let rssBytes = 0
  let ticks = 0
  let partial = false
  const counted = new Set<number>()
  for (const pid of listProcPids()) {
    const entry = readProcfsEntry(pid)
    if (!entry || entry.state === 'Z' || (entry.pgid !== pgid && !tagged.has(pid))) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // utime and stime are fields 14 and 15 of stat(5); fields[0] is field 3.
      ticks += Number(fields[11]) + Number(fields[12])
      const rssKib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      rssBytes += rssKib ? Number(rssKib[1]) * 1024 : 0
      counted.add(pid)
      known.set(pid, entry.startTime)
    } catch (error) {
      // Exited between the listing and the read: it no longer uses anything. Unreadable: not counted.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') partial = true
    }
  }
  // A process of this run seen before, still the same process, but neither in the group nor tagged
  // now (it exec'd with a scrubbed environment, say): what it uses is missing from this sample.
  for (const [pid, startTime] of known) {
    if (counted.has(pid)) continue
    const entry = readProcfsEntry(pid)
    if (entry && entry.state !== 'Z' && entry.startTime === startTime) partial = true
    else known.delete(pid)
  }
  if (counted.size === 0) return null
  return { rssBytes, cpuMs: (ticks * 1000) / LINUX_TICKS_PER_SECOND, processes: counted.size, partial }
}

function execFileText(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, windowsHide: true, env: { LC_ALL: 'C' } }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    )
  })
}
