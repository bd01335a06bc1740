import { statSync } from 'node:fs'
import { type IndexFacts, readGitIndexFile } from '../../git-index/index-file'
import { readRegularFile } from './bounded-read'
import { readOncePerCall } from './per-call-reads'

/** Larger indexes are not parsed on every classify; the caller refuses instead. */
export const MAX_INDEX_BYTES = 64 * 1024 * 1024

export type { IndexFacts } from '../../git-index/index-file'

const NO_ENTRIES: IndexFacts = { gitlinks: [], secretPaths: [], unlisted: [], stamps: new Map() }

// Keyed by the index's identity (inode, size, mtime in ns): a rewritten index gets a new key.
const cache = new Map<string, IndexFacts>()
const MAX_CACHED = 64

/**
 * Paths of the submodules (gitlink entries) recorded in a git index. `git status` descends into
 * each one and runs git there with that repository's own config, so those configs matter too.
 * Supports index versions 2, 3 and 4, sha1 and sha256 repositories.
 */
export function readIndexGitlinks(indexFile: string): string[] | { problem: string } {
  const facts = readIndexFacts(indexFile)
  return 'problem' in facts ? facts : facts.gitlinks
}

/** The gitlinks and the secret-named tracked files of a git index, parsed once per version of it. */
export function readIndexFacts(indexFile: string): IndexFacts | { problem: string } {
  // The program check and the repository's facts both read it in one classify call.
  return readOncePerCall(`index\0${indexFile}`, () => readIndexFactsNow(indexFile))
}

function readIndexFactsNow(indexFile: string): IndexFacts | { problem: string } {
  const stats = statSync(indexFile, { throwIfNoEntry: false, bigint: true })
  if (!stats) return NO_ENTRIES
  if (stats.size > BigInt(MAX_INDEX_BYTES))
    return { problem: `${indexFile} is over ${MAX_INDEX_BYTES} bytes` }
  const key = `${indexFile}:${stats.ino}:${stats.size}:${stats.mtimeNs}`
  const cached = cache.get(key)
  if (cached) return cached
  const facts = readGitIndexFile(indexFile, (file) =>
    readRegularFile(file, { maxBytes: MAX_INDEX_BYTES, followSymlinks: false }),
  )
  if ('problem' in facts) return facts
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(key, facts)
  return facts
}
