/**
 * How long after a change a file system stamp is not trusted to tell the next change apart. The
 * kernel stamps mtime and ctime from a coarse clock (a few milliseconds a tick), so a file added
 * in the same tick as a change already seen leaves a folder's times as they were. Whatever is kept
 * across classify calls by a stamp (a listing, a parsed file, "no repository marker here") is kept
 * only for what last changed longer ago than this; anything newer is looked at again next time.
 */
export const RECENT_CHANGE_MS = 2_000

/** Changed (content or metadata) within RECENT_CHANGE_MS of `now`: not to be kept by its stamp. */
export function changedRecently(stats: { mtimeMs: number; ctimeMs: number }, now = Date.now()): boolean {
  return now - Math.max(stats.mtimeMs, stats.ctimeMs) <= RECENT_CHANGE_MS
}
