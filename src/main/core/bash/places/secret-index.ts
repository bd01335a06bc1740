import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { valueHoldsCredential } from '../../secrets/git-secret-keys'
import { isSecretFileName } from '../../secrets/secret-file-names'
import type { FsLookups } from './fs-lookups'
import { RECENT_CHANGE_MS } from './recent-change'

/** More entries than this below a folder, and whether it holds a secret file is not known. */
export const MAX_INDEXED_ENTRIES = 20_000
const MAX_INDEXED_FOLDERS = 32
const MAX_GIT_CONFIG_BYTES = 64 * 1024
/** More symlinks than this below a folder, and where they all lead is not judged: it asks. */
export const MAX_INDEXED_LINKS = 256

/** How a recursive reader walks a folder: which names it skips. */
export interface WalkFilter {
  /** It skips names that start with a dot (rg without --hidden). */
  skipsHidden: boolean
  /**
   * rg: a `!` line in an ignore file it reads (`.ignore`, `.rgignore`, `.gitignore`, here or in a
   * folder above, or `.git/info/exclude`) whitelists names, hidden ones too (`!.env`): when the walk
   * meets one, hidden names count after all.
   */
  hiddenUnlessIgnoreFilesNegate?: boolean
  /** Folder names it does not descend into (grep --exclude-dir). */
  skipsFolder: (name: string) => boolean
  /** Whether it reads a file of this name (grep --include/--exclude, rg -g). */
  readsFile: (name: string) => boolean
  /** A stable key for the walk's shape: folders skipped and hidden names. */
  key: string
}

export type FolderSecrets = { secret: string | null } | { unknown: string }

interface Indexed {
  /**
   * Every folder walked (and every `.git/config` read), with the ctime it had: a file added,
   * removed or renamed changes it, and unlike mtime no program can set it back (`touch -d` after
   * planting `.env`). -1 for a config that did not exist.
   */
  folders: Array<[folder: string, ctimeMs: number]>
  /** Secret-named files (relative to the root), or config files in a `.git` holding a URL password. */
  secrets: string[]
  /**
   * Symlinks met on the walk (relative to the root), never followed. Only their names are kept:
   * where one leads can change with no folder here changing (its target's own parent swapped), so
   * whoever reads through them resolves them on every call.
   */
  links: string[]
  complete: boolean
  /** A folder changed within RECENT_CHANGE_MS of the walk: another change may carry the same ctime. */
  recent: boolean
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
  const indexed = indexOf(real, filter)
  if (!indexed.complete)
    return {
      unknown: `${root} holds more than ${MAX_INDEXED_ENTRIES} entries, too many to check for secret files`,
    }
  const secret = indexed.secrets.find((file) => filter.readsFile(path.basename(file)))
  return { secret: secret === undefined ? null : path.join(root, secret) }
}

export type FolderLinks = { links: string[] } | { unknown: string }

/**
 * The symlinks below `root` that a reader walking it like `filter` would be handed (`find -exec cat
 * {} +` opens each one, and so reads where it leads), as paths under `root`. Same walk and index as
 * findSecretBelow.
 */
export function findLinksBelow(root: string, filter: WalkFilter, lookups: FsLookups): FolderLinks {
  const real = lookups.realFolder(root)
  if (real === null) return { links: [] }
  const indexed = indexOf(real, filter)
  if (!indexed.complete)
    return { unknown: `${root} holds more than ${MAX_INDEXED_ENTRIES} entries, too many to check` }
  if (indexed.links.length > MAX_INDEXED_LINKS)
    return { unknown: `${root} holds more than ${MAX_INDEXED_LINKS} symlinks, too many to follow` }
  const links = indexed.links.filter((file) => filter.readsFile(path.basename(file)))
  return { links: links.map((file) => path.join(root, file)) }
}

function indexOf(real: string, filter: WalkFilter): Indexed {
  const key = `${real}\0${filter.key}`
  let indexed = INDEX.get(key)
  if (!indexed || !stillValid(indexed)) {
    indexed = walk(real, filter)
    INDEX.delete(key)
    if (INDEX.size >= MAX_INDEXED_FOLDERS) INDEX.delete(INDEX.keys().next().value as string)
    if (!indexed.recent) INDEX.set(key, indexed)
  }
  return indexed
}

function stillValid(indexed: Indexed): boolean {
  for (const [folder, ctimeMs] of indexed.folders) if (ctimeOf(folder) !== ctimeMs) return false
  return true
}

function walk(root: string, filter: WalkFilter): Indexed {
  if (filter.skipsHidden && filter.hiddenUnlessIgnoreFilesNegate) {
    const watched: Indexed['folders'] = []
    if (ignoreFilesAboveNegate(root, watched)) return walk(root, { ...filter, skipsHidden: false })
    const indexed = walkFolders(root, filter)
    if (indexed === 'negated') return walk(root, { ...filter, skipsHidden: false })
    // A `!` line added above later changes one of these: the kept walk is then done again.
    indexed.folders.push(...watched)
    return indexed
  }
  const indexed = walkFolders(root, filter)
  return indexed === 'negated' ? walk(root, { ...filter, skipsHidden: false }) : indexed
}

const IGNORE_FILES = new Set(['.ignore', '.rgignore', '.gitignore'])
const MAX_IGNORE_FILE_BYTES = 256 * 1024

/**
 * Whether an ignore file in `root` or a folder above it (or a repository's info/exclude, which
 * the walk never enters) has a `!` line.
 */
function ignoreFilesAboveNegate(root: string, watched: Indexed['folders']): boolean {
  for (let dir = root; ; dir = path.dirname(dir)) {
    watched.push([dir, ctimeOf(dir)])
    for (const name of [...IGNORE_FILES, path.join('.git', 'info', 'exclude')]) {
      const file = path.join(dir, name)
      const ctimeMs = ctimeOf(file)
      if (ctimeMs === -1) continue
      watched.push([file, ctimeMs])
      if (ignoreFileNegates(file)) return true
    }
    if (path.dirname(dir) === dir) return false
  }
}

/** A line starting with `!` re-includes what an earlier line ignored; unreadable or too large counts as one. */
function ignoreFileNegates(file: string): boolean {
  try {
    const stats = statSync(file, { throwIfNoEntry: false })
    if (!stats?.isFile()) return false
    if (stats.size > MAX_IGNORE_FILE_BYTES) return true
    return readFileSync(file, 'utf8')
      .split('\n')
      .some((line) => line.trimStart().startsWith('!'))
  } catch {
    return true
  }
}

function walkFolders(root: string, filter: WalkFilter): Indexed | 'negated' {
  const indexed: Indexed = { folders: [], secrets: [], links: [], complete: true, recent: false }
  const recentSince = Date.now() - RECENT_CHANGE_MS
  const queue = ['']
  // Folders inside a repository's .git: grep -r and find go in there too, so links and secret
  // files are looked for there as well, and every config (a submodule's under modules/ too) is
  // read for a password. Only objects/ is left out: zlib-compressed, it prints nothing legible, and
  // the git check judges where its stores lead.
  const insideGit = new Set<string>()
  // `grep -r x .git/modules` starts inside one.
  if (root.split(path.sep).includes('.git')) insideGit.add('')
  const configs = new Set<string>()
  const checkConfig = (config: string, relative: string) => {
    if (configs.has(config)) return
    configs.add(config)
    // `git remote set-url` rewrites the config in place of the old one: its own ctime changes.
    const configCtimeMs = ctimeOf(config)
    indexed.folders.push([config, configCtimeMs])
    if (configCtimeMs > recentSince) indexed.recent = true
    if (gitConfigHoldsCredential(config)) indexed.secrets.push(relative)
  }
  let entries = 0
  while (queue.length > 0) {
    const relative = queue.shift() as string
    const folder = path.join(root, relative)
    const stats = statSync(folder, { throwIfNoEntry: false })
    if (!stats) continue
    indexed.folders.push([folder, stats.ctimeMs])
    if (stats.ctimeMs > recentSince) indexed.recent = true
    let listing: Dirent[]
    try {
      listing = readdirSync(folder, { withFileTypes: true })
    } catch {
      continue
    }
    entries += listing.length
    if (entries > MAX_INDEXED_ENTRIES) return { ...indexed, complete: false }
    const inGit = insideGit.has(relative)
    for (const entry of listing) {
      if (filter.skipsHidden && filter.hiddenUnlessIgnoreFilesNegate && IGNORE_FILES.has(entry.name)) {
        const ignoreFile = path.join(folder, entry.name)
        // Edited in place, an ignore file leaves its folder's ctime as it was: kept to be re-checked.
        indexed.folders.push([ignoreFile, ctimeOf(ignoreFile)])
        if (ignoreFileNegates(ignoreFile)) return 'negated'
      }
      if (filter.skipsHidden && entry.name.startsWith('.')) continue
      const file = path.join(relative, entry.name)
      if (entry.isDirectory()) {
        if (inGit && entry.name === 'objects') continue
        if (entry.name === '.git') checkConfig(path.join(folder, '.git', 'config'), path.join(file, 'config'))
        if (filter.skipsFolder(entry.name)) continue
        if (inGit || entry.name === '.git') insideGit.add(file)
        queue.push(file)
        continue
      }
      if (inGit && (entry.name === 'config' || entry.name === 'config.worktree'))
        checkConfig(path.join(folder, entry.name), file)
      if (entry.isSymbolicLink()) indexed.links.push(file)
      if (isSecretFileName(entry.name)) indexed.secrets.push(file)
    }
  }
  return indexed
}

/** -1 for a file that is gone: a folder that disappears, or a config that appears, is a change. */
function ctimeOf(file: string): number {
  try {
    return statSync(file, { throwIfNoEntry: false })?.ctimeMs ?? -1
  } catch {
    return -1
  }
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
