import type { GroupUsage, Win32ProcessRow } from './resource-probe.parse'

/**
 * What the run rooted at `rootPid` uses, from one Win32_Process table: the root, its descendants,
 * and every process counted in an earlier sample that is still the same process (`known`: pid →
 * creation time, kept by the caller across samples and updated here). Null when none is running.
 *
 * Windows has no process groups and no inherited tag the probe could read, so the tree is the
 * run. Two things make ParentProcessId treacherous:
 * - Windows reuses pids and never rewrites ParentProcessId when a parent exits, so a process whose
 *   parent pid is ours may be a stranger whose parent died before ours got that pid. A child
 *   created before its parent is therefore not a child.
 * - A process whose parent exited is cut off from the root. Unlike Linux, where such a process is
 *   flagged (the sample is `partial`), it is still in this table with the same pid and creation
 *   time, so it is counted, and so is everything below it. Only a process that was orphaned
 *   before any sample saw it cannot be found; nothing in the table ties it to the run.
 *
 * `partial` says a process was seen as a child but could not be confirmed (no creation time to
 * compare), or a counted process's memory or CPU was not given.
 */
export function sumWindowsRunUsage(
  rows: readonly Win32ProcessRow[],
  rootPid: number,
  known: Map<number, string>,
): GroupUsage | null {
  const byPid = new Map(rows.map((row) => [row.pid, row]))
  const children = new Map<number, Win32ProcessRow[]>()
  for (const row of rows) {
    if (row.pid === row.parentPid) continue
    const siblings = children.get(row.parentPid)
    if (siblings) siblings.push(row)
    else children.set(row.parentPid, [row])
  }

  let partial = false
  const starts: Win32ProcessRow[] = []
  const reused = new Set<number>()
  for (const [pid, created] of known) {
    const row = byPid.get(pid)
    if (row && creationKey(row) === created) {
      starts.push(row)
      continue
    }
    // Gone, or the pid now names another process: neither uses anything of this run's.
    if (row) reused.add(pid)
    known.delete(pid)
  }
  const root = byPid.get(rootPid)
  if (root && !reused.has(rootPid)) starts.unshift(root)

  const counted = new Map<number, Win32ProcessRow>()
  const queue = [...starts]
  while (queue.length > 0) {
    const row = queue.shift()!
    if (counted.has(row.pid)) continue
    counted.set(row.pid, row)
    for (const child of children.get(row.pid) ?? []) {
      if (counted.has(child.pid)) continue
      if (child.createdMicros === null || row.createdMicros === null) partial = true
      else if (child.createdMicros >= row.createdMicros) queue.push(child)
    }
  }
  if (counted.size === 0) return null

  let rssBytes = 0
  let cpuMs = 0
  for (const row of counted.values()) {
    if (row.workingSetBytes === null || row.cpuMs === null) partial = true
    rssBytes += row.workingSetBytes ?? 0
    cpuMs += row.cpuMs ?? 0
    known.set(row.pid, creationKey(row))
  }
  return { rssBytes, cpuMs: Math.round(cpuMs), processes: counted.size, partial }
}

function creationKey(row: Win32ProcessRow): string {
  return row.createdMicros === null ? '' : String(row.createdMicros)
}
