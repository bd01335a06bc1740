import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { valueHoldsCredential } from '../../secrets/git-secret-keys'
import { isSecretFileName } from '../../secrets/secret-file-names'
import type { FsLookups } from './fs-lookups'

/** More entries than this below a folder, and whether it holds a secret file is not known. */
export const MAX_INDEXED_ENTRIES = 20_000
const MAX_INDEXED_FOLDERS = 32
const MAX_GIT_CONFIG_BYTES = 64 * 1024

/** How a recursive reader walks a folder: which names it skips. */
export interface WalkFilter {
  /** It skips names that start with a dot (rg without --hidden). */
  skipsHidden: boolean
  /** Folder names it does not descend into (grep --exclude-dir). */
  skipsFolder: (name: string) => boolean
  /** Whether it reads a file of this name (grep --include/--exclude, rg -g). */
  readsFile: (name: string) => boolean
  /** A stable key for the walk's shape: folders skipped and hidden names. */
  key: string
}

export type FolderSecrets = { secret: string | null } | { unknown: string }

interface Indexed {
  /** Every folder walked, with the mtime its listing had: a file added or removed changes it. */
  folders: Array<[folder: string, mtimeMs: number]>
  /** Secret-named files (relative to the root), or `.git/config` files holding a URL password. */
  secrets: string[]
  complete: boolean
}

const INDEX = new Map<string, Indexed>()

/**
 * Whether a recursive read of `root` reaches a secret file at any depth (issue 21.4): `.env`,
 * `app.env`, keys, credential files, and a repository's `.git/config` that embeds a password in a
 * URL. One walk per folder (symlinks not followed, as grep -r and rg do not), kept and reused as
 * long as no folder's listing changed: each later call re-stats the folders it walked instead of
 * listing them again, so a secret file added anywhere is seen by the next classify.
 */
export function findSecretBelow(root: string, filter: WalkFilter, lookups: FsLookups): FolderSecrets {
  const real = lookups.realFolder(root)
  if (real === null) return { secret: null }
  const key = `${real}\0${filter.key}`
  let indexed = INDEX.get(key)
  if (!indexed || !stillValid(indexed)) {
    indexed = walk(real, filter)
    if (INDEX.size >= MAX_INDEXED_FOLDERS) INDEX.delete(INDEX.keys().next().value as string)
    INDEX.set(key, indexed)
  }
  if (!indexed.complete)
    return {
      unknown: `${root} holds more than ${MAX_INDEXED_ENTRIES} entries, too many to check for secret files`,
    }
  const secret = indexed.secrets.find((file) => filter.readsFile(path.basename(file)))
  return { secret: secret === undefined ? null : path.join(root, secret) }
}

function stillValid(indexed: Indexed): boolean {
  for (const [folder, mtimeMs] of indexed.folders) {
    const stats = statSync(folder, { throwIfNoEntry: false })
    if (!stats || stats.mtimeMs !== mtimeMs) return false
  }
  return true
}

function walk(root: string, filter: WalkFilter): Indexed {
  const indexed: Indexed = { folders: [], secrets: [], complete: true }
  const queue = ['']
  let entries = 0
  while (queue.length > 0) {
    const relative = queue.shift() as string
    const folder = path.join(root, relative)
    const stats = statSync(folder, { throwIfNoEntry: false })
    if (!stats) continue
    indexed.folders.push([folder, stats.mtimeMs])
    let listing: Dirent[]
    try {
      listing = readdirSync(folder, { withFileTypes: true })
    } catch {
      continue
    }
    entries += listing.length
    if (entries > MAX_INDEXED_ENTRIES) return { ...indexed, complete: false }
    for (const entry of listing) {
      if (filter.skipsHidden && entry.name.startsWith('.')) continue
      const file = path.join(relative, entry.name)
      if (entry.isDirectory()) {
        if (entry.name === '.git') {
          if (gitConfigHoldsCredential(path.join(folder, '.git', 'config')))
            indexed.secrets.push(path.join(file, 'config'))
          continue
        }
        if (!filter.skipsFolder(entry.name)) queue.push(file)
      } else if (isSecretFileName(entry.name)) indexed.secrets.push(file)
    }
  }
  return indexed
}

/** A repository config whose remote URL carries a password (`https://me:token@host/x.git`). */
function gitConfigHoldsCredential(file: string): boolean {
  try {
    const stats = statSync(file, { throwIfNoEntry: false })
    if (!stats?.isFile() || stats.size > MAX_GIT_CONFIG_BYTES) return stats?.isFile() === true
    return readFileSync(file, 'utf8').split('\n').some(valueHoldsCredential)
  } catch {
    return false
  }
}
