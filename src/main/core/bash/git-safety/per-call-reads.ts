import { lstatSync, type Stats } from 'node:fs'

/**
 * One classify call asks about the same repository files several times (the program check, the
 * promisor check and the facts each read the config; the hooks and each config read look for
 * `commondir`), and every answer had to be revalidated by stat'ing its files again. Inside
 * `withCallReads` each such read is made once; the answers live exactly as long as the call, so a
 * file changed between two calls is always read again (the caches below them check identities).
 */
let current: Map<string, unknown> | null = null

export function withCallReads<T>(reads: Map<string, unknown>, run: () => T): T {
  const outer = current
  current = reads
  try {
    return run()
  } finally {
    current = outer
  }
}

/** The answer already read in this call for `key`, else `read()` (remembered for the call). */
export function readOncePerCall<T>(key: string, read: () => T): T {
  const reads = current
  if (reads === null) return read()
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
  return readOncePerCall(`lstat\0${file}`, () => {
    try {
      return lstatSync(file, { throwIfNoEntry: false }) ?? null
    } catch {
      return null
    }
  })
}
