import type { Dirent, Stats } from 'node:fs'
import { createFsLookups, type FsLookups } from '../places/fs-lookups'

/**
 * One classify call asks about the same repository files several times (the program check, the
 * promisor check and the facts each read the config; the hooks and each config read look for
 * `commondir`), and every answer had to be revalidated by stat'ing its files again. Inside
 * `withCallReads` each such read is made once; the answers live exactly as long as the call, so a
 * file changed between two calls is always read again (the caches below them check identities).
 *
 * The stats, lstats, listings and real folders come from the call's file system lookups (its own
 * when classify gives none):
 * the walk up from cwd asks about the very folders the path checks of the same call asked about,
 * and every answer within one call must agree with the others anyway.
 */
interface CallReads {
  reads: Map<string, unknown>
  lookups: FsLookups
}

let current: CallReads | null = null

export function withCallReads<T>(
  reads: Map<string, unknown>,
  run: () => T,
  lookups: FsLookups = createFsLookups(),
): T {
  const outer = current
  current = { reads, lookups }
  try {
    return run()
  } finally {
    current = outer
  }
}

/** The answer already read in this call for `key`, else `read()` (remembered for the call). */
export function readOncePerCall<T>(key: string, read: () => T): T {
  const reads = current?.reads
  if (reads === undefined) return read()
  if (reads.has(key)) return reads.get(key) as T
  const answer = read()
  reads.set(key, answer)
  return answer
}

/**
 * lstat once per call: the discovery walk, the gitdir check and the commondir reader each ask
 * whether `.git`, `commondir` exist. A throwing lstat (EACCES, ELOOP) answers null, as a missing file.
 */
export function lstatOncePerCall(file: string): Stats | null {
  return lookupsOfCall().lstat(file)
}

/** stat once per call (it follows symlinks), null for a missing or unreadable path, as above. */
export function statOncePerCall(file: string): Stats | null {
  return lookupsOfCall().stat(file)
}

/** The kernel's real path of a folder, null when it does not resolve; kept as the lookups keep it. */
export function realFolderOncePerCall(dir: string): string | null {
  return lookupsOfCall().realFolder(dir)
}

/** A folder's entries with their types, once per call; null when it cannot be listed. */
export function readdirOncePerCall(dir: string): Dirent[] | null {
  return lookupsOfCall().readdir(dir)
}

// Outside a call (a check run on its own), every question is asked afresh.
function lookupsOfCall(): FsLookups {
  return current?.lookups ?? createFsLookups()
}
