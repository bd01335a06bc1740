import { readlinkSync } from 'node:fs'
import { descendantsOf, readProcessTable } from '../exec/process-table'
import { findTaggedPids } from '../exec/run-marker'

/**
 * The live processes of a task: its root, the root's group and descendants, and every process
 * carrying its run tag (a `setsid` server re-parented to init still counts). Ports and forwards
 * are judged by these, never by whoever else happens to listen on the same port.
 */
export async function taskProcesses(
  root: { pid: number | null; runId: string | null },
  platform: NodeJS.Platform,
): Promise<number[]> {
  if (root.pid === null || platform === 'win32') return []
  const table = await readProcessTable(platform)
  const pids = new Set<number>()
  if (table.some((entry) => entry.pid === root.pid && entry.state !== 'Z')) pids.add(root.pid)
  for (const entry of table) if (entry.pgid === root.pid && entry.state !== 'Z') pids.add(entry.pid)
  for (const entry of descendantsOf(table, root.pid)) if (entry.state !== 'Z') pids.add(entry.pid)
  if (root.runId) for (const pid of await findTaggedPids(root.runId, platform)) pids.add(pid)
  return [...pids]
}

/** The network namespace a process lives in (`net:[4026531840]`), or null when it is gone. */
export function netNamespaceOf(pid: number | 'self'): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`)
  } catch {
    return null
  }
}
