import { type BigIntStats, type Dirent, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { isSecretFileName } from '../secrets/secret-file-names'
import { kindOf, realOrNull } from './host-paths'

/**
 * How many folders one scan reads at most (issue 19: "say what happens when a workspace is too
 * large to walk"). Past it the scan stops and names the folders it did not read; the planner then
 * fails closed for each of them: hidden from the read-only profile, read-only in workspace-write,
 * never silently open. A large JavaScript monorepo with its node_modules is about 10 000 folders.
 */
export const SCAN_FOLDER_CAP = 20_000
/** Folders whose listing changed within this window are read again next time, however their mtime looks. */
const RACY_WINDOW_NS = 2_000_000_000n
/** The listing cache is dropped whole when it grows past this many folders. */
const CACHE_FOLDER_LIMIT = 100_000

export interface FolderScan {
  /** Files with a secret name (the secrets room's isSecretFileName), at their real path. */
  secretFiles: string[]
  /** Unix sockets: connect() works through a read-only mount, so each is hidden unless allowed. */
  sockets: string[]
  /** `.git` folders and files (a repository, a submodule's or worktree's link) below the root, the root's own included. */
  gitEntries: { path: string; kind: 'dir' | 'file' | 'link' }[]
  /**
   * Folders shaped like a bare repository (HEAD, and objects and refs or a commondir), whatever their name: git's
   * discovery takes one for a repository (safe.bareRepository defaults to all), as it walks up
   * from a folder below, or from the workspace itself when its `.git` is broken.
   */
  bareRepositories: string[]
  /** Folders not read: past SCAN_FOLDER_CAP, or unreadable. */
  unread: string[]
  folders: number
}

/**
 * One folder's listing, reduced to what the scan keeps (most folders hold no secret, socket or
 * repository, so a repeated scan is one lstat and a few pushes per folder).
 */
interface Listing {
  dev: bigint
  ino: bigint
  mtimeNs: bigint
  ctimeNs: bigint
  folders: string[]
  secretNames: { name: string; link: boolean }[]
  sockets: string[]
  gitEntries: { name: string; kind: 'dir' | 'file' | 'link' }[]
  bare: boolean
}
const listings = new Map<string, Listing>()

/**
 * Walks a folder the person's files live in (the workspace, a folder they added), dot folders and
 * dependency folders included, without following symlinked folders and without entering `.git`
 * folders (git's own files are sealed, not scanned). Each folder's listing is cached by its
 * identity and change times, so a repeated scan costs one lstat per folder.
 */
export function scanFolder(root: string, cap = SCAN_FOLDER_CAP): FolderScan {
  const scan: FolderScan = {
    secretFiles: [],
    sockets: [],
    gitEntries: [],
    bareRepositories: [],
    unread: [],
    folders: 0,
  }
  const queue = [root]
  for (let next = 0; next < queue.length; next += 1) {
    const dir = queue[next]!
    if (scan.folders >= cap) {
      scan.unread.push(...queue.slice(next))
      break
    }
    scan.folders += 1
    const listing = listFolder(dir)
    if (listing === null) {
      scan.unread.push(dir)
      continue
    }
    for (const name of listing.folders) queue.push(join(dir, name))
    for (const name of listing.sockets) scan.sockets.push(join(dir, name))
    if (listing.bare) scan.bareRepositories.push(dir)
    for (const entry of listing.gitEntries)
      scan.gitEntries.push({ path: join(dir, entry.name), kind: entry.kind })
    for (const secret of listing.secretNames) {
      const path = join(dir, secret.name)
      // A link named .env is hidden where it points, like every other secret.
      const real = secret.link ? realOrNull(path) : path
      if (real && kindOf(real) === 'file') scan.secretFiles.push(real)
    }
  }
  return scan
}

function listFolder(dir: string): Listing | null {
  let stats: BigIntStats
  try {
    stats = lstatSync(dir, { bigint: true })
  } catch {
    return null
  }
  const cached = listings.get(dir)
  if (
    cached &&
    cached.dev === stats.dev &&
    cached.ino === stats.ino &&
    cached.mtimeNs === stats.mtimeNs &&
    cached.ctimeNs === stats.ctimeNs
  ) {
    return cached
  }
  let dirents: Dirent[]
  try {
    dirents = readdirSync(dir, { withFileTypes: true })
  } catch {
    listings.delete(dir)
    return null
  }
  const listing: Listing = {
    dev: stats.dev,
    ino: stats.ino,
    mtimeNs: stats.mtimeNs,
    ctimeNs: stats.ctimeNs,
    folders: [],
    secretNames: [],
    sockets: [],
    gitEntries: [],
    bare: false,
  }
  let bareParts = 0
  let hasHead = false
  for (const dirent of dirents) {
    const { name } = dirent
    const link = dirent.isSymbolicLink()
    // git's is_git_directory asks only that objects/ and refs/ can be entered (an executable
    // file passes its access() check), or takes both from a commondir: any kind counts.
    if (name === 'HEAD') hasHead = true
    else if (name === 'objects' || name === 'refs') bareParts += 1
    else if (name === 'commondir') bareParts = 2
    // git follows a `.git` symlink as it does a `.git` folder: it is a repository too.
    if (name === '.git' && (dirent.isDirectory() || dirent.isFile() || link)) {
      listing.gitEntries.push({ name, kind: dirent.isDirectory() ? 'dir' : link ? 'link' : 'file' })
    } else if (dirent.isDirectory()) listing.folders.push(name)
    else if (dirent.isSocket()) listing.sockets.push(name)
    else if ((dirent.isFile() || link) && isSecretFileName(name)) listing.secretNames.push({ name, link })
  }
  listing.bare = hasHead && bareParts >= 2
  // A listing changed within the clock's granularity may change again with the same mtime.
  const now = BigInt(Date.now()) * 1_000_000n
  if (now - stats.mtimeNs > RACY_WINDOW_NS && now - stats.ctimeNs > RACY_WINDOW_NS) {
    if (listings.size >= CACHE_FOLDER_LIMIT) listings.clear()
    listings.set(dir, listing)
  } else listings.delete(dir)
  return listing
}
