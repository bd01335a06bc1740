import path from 'node:path'
import { isSecretFileName } from '../secrets/secret-file-names'

/**
 * A git index read from its bytes, for the verdict's git checks and the sandbox's audit alike:
 * the gitlinks (submodules `git status` descends into) and the tracked files whose name says they
 * hold a secret. Versions 2, 3 and 4, sha1 and sha256 ids, and the `link` extension of a split index.
 */
const GITLINK_MODE = 0o160000
const ENTRY_FIXED_BYTES = 40
const EXTENDED_FLAG = 0x4000
const ASSUME_VALID_FLAG = 0x8000
const SKIP_WORKTREE_FLAG = 0x4000

/** What a git index tells: its gitlinks and secret-named tracked files, both parts of a split one. */
export interface IndexFacts {
  gitlinks: string[]
  secretPaths: string[]
  /** Entries git status and git diff do not look at (skip-worktree, assume-unchanged). */
  unlisted: string[]
  /** For the paths the caller watches: each entry's mode and object id, as `mode:id`. */
  stamps: Map<string, string>
}

/** Which tracked paths the caller wants stamped (the sandbox's audit: programs a config names). */
export type IndexWatch = (path: string) => boolean

/** Reads a file's bytes: null when it does not exist; throws (with the reason) when it may not be read. */
export type IndexFileReader = (file: string) => Buffer | null

const noEntries = (): IndexFacts => ({ gitlinks: [], secretPaths: [], unlisted: [], stamps: new Map() })

/**
 * The facts of an index file. A split index (`core.splitIndex`, `git update-index --split-index`)
 * keeps most entries in `sharedindex.<id>` beside it and only the changes in `index`: reading
 * `index` alone missed the submodules and secret-named files the shared part records, and `git
 * status` then ran a submodule's fsmonitor unasked. Both parts are read; entries the split part
 * deletes are still counted (one more place checked, never one fewer).
 */
export function readGitIndexFile(
  indexFile: string,
  read: IndexFileReader,
  watch?: IndexWatch,
): IndexFacts | { problem: string } {
  const own = readPart(indexFile, read, watch)
  if (own === null) return noEntries()
  if ('problem' in own || own.sharedIndex === null) return own
  const sharedFile = path.join(path.dirname(indexFile), `sharedindex.${own.sharedIndex}`)
  const shared = readPart(sharedFile, read, watch)
  if (shared === null)
    return { problem: `${indexFile} is a split index whose shared part ${sharedFile} is missing` }
  if ('problem' in shared) return shared
  if (shared.sharedIndex !== null) return { problem: `${sharedFile} is itself split, which git never writes` }
  return {
    gitlinks: [...new Set([...shared.gitlinks, ...own.gitlinks])],
    secretPaths: [...new Set([...shared.secretPaths, ...own.secretPaths])],
    unlisted: [...new Set([...shared.unlisted, ...own.unlisted])],
    stamps: new Map([...shared.stamps, ...own.stamps]),
  }
}

function readPart(
  file: string,
  read: IndexFileReader,
  watch: IndexWatch | undefined,
): ParsedIndex | { problem: string } | null {
  let data: Buffer | null
  try {
    data = read(file)
  } catch (error) {
    return { problem: (error as Error).message }
  }
  if (data === null) return null
  const parsed = parseGitIndex(data, watch)
  return typeof parsed === 'string' ? { problem: `${file}: ${parsed}` } : parsed
}

/** One index file's facts, and the id of the shared index it is split from (its `link` extension). */
export interface ParsedIndex extends IndexFacts {
  sharedIndex: string | null
}

export function parseGitIndex(data: Buffer, watch?: IndexWatch): ParsedIndex | string {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return 'not a git index'
  const version = data.readUInt32BE(4)
  if (version < 2 || version > 4) return `index version ${version} is not supported`
  const count = data.readUInt32BE(8)
  const hashBytes = count === 0 ? 20 : detectHashBytes(data, version)
  if (hashBytes === null) return 'entries fit neither sha1 nor sha256 object ids'
  const gitlinks: string[] = []
  const secretPaths: string[] = []
  const unlisted: string[] = []
  const stamps = new Map<string, string>()
  let offset = 12
  let previousPath = ''
  for (let entry = 0; entry < count; entry += 1) {
    const start = offset
    if (offset + ENTRY_FIXED_BYTES + hashBytes + 2 > data.length) return 'truncated entry'
    const mode = data.readUInt32BE(offset + 24)
    const idAt = offset + ENTRY_FIXED_BYTES
    offset += ENTRY_FIXED_BYTES + hashBytes
    const flags = data.readUInt16BE(offset)
    offset += 2
    let extended = 0
    if (version >= 3 && (flags & EXTENDED_FLAG) !== 0) {
      if (offset + 2 > data.length) return 'truncated entry'
      extended = data.readUInt16BE(offset)
      offset += 2
    }
    let path: string
    if (version === 4) {
      const strip = readVarint(data, offset)
      if (!strip) return 'bad path prefix'
      offset = strip.next
      const end = data.indexOf(0, offset)
      if (end === -1 || strip.value > previousPath.length) return 'bad path'
      path = previousPath.slice(0, previousPath.length - strip.value) + data.toString('utf8', offset, end)
      offset = end + 1
    } else {
      const end = data.indexOf(0, offset)
      if (end === -1) return 'bad path'
      path = data.toString('utf8', offset, end)
      // Entries are NUL-padded to a multiple of 8 bytes.
      offset = start + Math.ceil((end + 1 - start) / 8) * 8
    }
    previousPath = path
    if ((flags & ASSUME_VALID_FLAG) !== 0 || (extended & SKIP_WORKTREE_FLAG) !== 0) unlisted.push(path)
    if (watch?.(path)) stamps.set(path, `${mode.toString(8)}:${data.toString('hex', idAt, idAt + hashBytes)}`)
    if ((mode & 0o170000) === GITLINK_MODE) gitlinks.push(path)
    else if (isSecretFileName(path.slice(path.lastIndexOf('/') + 1))) secretPaths.push(path)
  }
  // An index with no entries (a split index's usual part) does not say its id size: try both.
  const sizes = count === 0 ? [20, 32] : [hashBytes]
  const sharedIndex = sizes.map((size) => linkExtension(data, offset, size)).find((id) => id !== undefined)
  if (sharedIndex === undefined) return 'bad extension'
  return { gitlinks, secretPaths, unlisted, stamps, sharedIndex }
}

/**
 * The shared index id in the `link` extension, null when there is none, undefined when the
 * extensions do not parse. Extensions follow the entries: a 4-byte signature, a 4-byte size, the
 * data; the file ends with its own checksum. An all-zero id means "not split" to git.
 */
function linkExtension(data: Buffer, from: number, hashBytes: number): string | null | undefined {
  const end = data.length - hashBytes
  for (let offset = from; offset < end; ) {
    if (offset + 8 > end) return undefined
    const size = data.readUInt32BE(offset + 4)
    if (offset + 8 + size > end) return undefined
    if (data.toString('latin1', offset, offset + 4) === 'link') {
      if (size < hashBytes) return undefined
      const id = data.toString('hex', offset + 8, offset + 8 + hashBytes)
      return /^0+$/.test(id) ? null : id
    }
    offset += 8 + size
  }
  return null
}

/**
 * sha1 (20-byte) or sha256 (32-byte) ids, read from the index itself: the first entry's flags hold
 * its path length, and only the right id size puts the path's NUL terminator there.
 */
function detectHashBytes(data: Buffer, version: number): number | null {
  for (const hashBytes of [20, 32]) {
    const flagsAt = 12 + ENTRY_FIXED_BYTES + hashBytes
    if (flagsAt + 2 > data.length) continue
    const flags = data.readUInt16BE(flagsAt)
    const pathLength = flags & 0xfff
    const extended = version >= 3 && (flags & EXTENDED_FLAG) !== 0 ? 2 : 0
    // v4 starts each path with a varint prefix length, a single 0 byte for the first entry.
    const pathAt = flagsAt + 2 + extended + (version === 4 ? 1 : 0)
    // A path of 4095 bytes or more says only 0xfff there: its NUL comes at or after that.
    const nul = data.indexOf(0, pathAt)
    if (pathLength < 0xfff ? nul === pathAt + pathLength : nul >= pathAt + 0xfff) return hashBytes
  }
  return null
}

/** git's offset varint (index v4 path prefix lengths). */
function readVarint(data: Buffer, offset: number): { value: number; next: number } | null {
  let at = offset
  let byte = data[at++]
  if (byte === undefined) return null
  let value = byte & 0x7f
  while (byte & 0x80) {
    byte = data[at++]
    if (byte === undefined) return null
    value = ((value + 1) << 7) | (byte & 0x7f)
  }
  return { value, next: at }
}
