import { readdirSync, readFileSync } from 'node:fs'

/**
 * How tests decide a process is gone, by pid and start time, never by name.
 *
 * A zombie has stopped running but still has a pid. Who reaps it decides what it means: if its
 * parent is this test process, Node should have reaped it, so a zombie child of ours is a leak. An
 * orphan is re-parented to PID 1, and PID 1 in this sandbox (a VM agent, not an init) never reaps,
 * so an orphaned zombie stays forever; it is dead, runs no code and holds no resources but its pid,
 * so it counts as gone.
 */
export interface TrackedPid {
  pid: number
  startTime: string
}

export function track(pid: number): TrackedPid {
  return { pid, startTime: readStat(pid)?.startTime ?? '' }
}

export function isGone(tracked: TrackedPid): boolean {
  const stat = readStat(tracked.pid)
  if (!stat || stat.startTime !== tracked.startTime) return true
  return stat.state === 'Z' && stat.ppid !== process.pid
}

export async function waitAllGone(tracked: TrackedPid[], timeoutMs = 5_000): Promise<TrackedPid[]> {
  const deadline = Date.now() + timeoutMs
  let alive = tracked.filter((entry) => !isGone(entry))
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    alive = alive.filter((entry) => !isGone(entry))
  }
  return alive
}

/** Zombie children of this process: each is a child Node failed to reap. */
export function ourZombies(): number[] {
  const zombies: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = readStat(Number(name))
    if (stat && stat.state === 'Z' && stat.ppid === process.pid) zombies.push(stat.pid)
  }
  return zombies
}

export function openFdCount(): number {
  return readdirSync('/proc/self/fd').length
}

/** Reads a pid file written by a fixture once it has `count` lines; tracks each pid. */
export async function readPids(path: string, count: number, timeoutMs = 5_000): Promise<TrackedPid[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let lines: string[] = []
    try {
      lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
    } catch {}
    if (lines.length >= count) return lines.map((line) => track(Number(line)))
    if (Date.now() > deadline) throw new Error(`${path} has ${lines.length} of ${count} pids`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function readStat(pid: number): { pid: number; state: string; ppid: number; startTime: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { pid, state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! }
  } catch {
    return null
  }
}

/** By pid alone: gone, or a zombie nobody will reap (PID 1 here reaps nothing). */
export function isPidGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}
