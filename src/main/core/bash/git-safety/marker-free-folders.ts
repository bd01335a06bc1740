import type { Stats } from 'node:fs'
import path from 'node:path'
import { lstatOncePerCall, statOncePerCall } from './per-call-reads'
import { changedRecently } from '../places/recent-change'

/**
 * Folders known to hold none of the entries git's discovery looks for (`.git`, and the `HEAD`,
 * `objects`, `refs` of a bare repository), across calls. Creating, removing or renaming any entry
 * of a folder changes the folder's mtime and ctime, so an answer stays valid while the folder's
 * identity and times are the ones seen when it was checked: one stat instead of four lstats per
 * level of every walk outside a repository.
 *
 * A file system stamps times at its clock's granularity (a tick on some kernels), so an entry
 * made in the same tick as the folder's last change could leave its times as they were. An
 * answer is therefore only kept for a folder whose last change is older than RECENT_CHANGE_MS
 * when it was checked (git's "racily clean" rule); a folder changed more recently is looked at
 * again each time, like before.
 */
export const DISCOVERY_ENTRIES = ['.git', 'HEAD', 'objects', 'refs'] as const
const MAX_FOLDERS = 512
const markerFree = new Map<string, string>()

/** Whether `dir` holds none of git's discovery entries, revalidated by the folder's stamp. */
export function holdsNoDiscoveryEntry(dir: string, now: () => number = Date.now): boolean {
  const stats = statOncePerCall(dir)
  const stamp = stats ? stampOf(stats) : null
  if (stamp !== null && markerFree.get(dir) === stamp) return true
  const free = DISCOVERY_ENTRIES.every((name) => lstatOncePerCall(path.join(dir, name)) === null)
  if (!free || stats === null || stamp === null) {
    markerFree.delete(dir)
    return free
  }
  // Checked after the listing, so a change made while we looked is never taken as old.
  if (!changedRecently(stats, now())) {
    if (markerFree.size >= MAX_FOLDERS) markerFree.clear()
    markerFree.set(dir, stamp)
  }
  return free
}

function stampOf(stats: Stats): string | null {
  if (!stats.isDirectory()) return null
  return `${stats.dev}:${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}`
}
