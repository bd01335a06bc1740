import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs'

/**
 * The file system questions one classify call asks, each answered once per call: a line such as
 * `cd src && cat a b && git log` asks about the same folders again and again, and the answers
 * within one call must agree with each other anyway. Created per call, dropped with it.
 */
export interface FsLookups {
  lstat(file: string): Stats | null
  stat(file: string): Stats | null
  /** The kernel's real path, or null when any component is missing. */
  realpath(file: string): string | null
  /** The real path of a folder, kept between calls while the folder is still the same one (see below). */
  realFolder(dir: string): string | null
  /** The entries of a folder with their types, or null when it cannot be read. */
  readdir(dir: string): Dirent[] | null
}

// Real paths of folders, kept between calls: resolving every component of the cwd on each classify
// was most of its cost. A kept answer is used only while one stat of the folder (which the kernel
// resolves through every symlink of the path as it is now) still finds the same directory: same
// device, inode and ctime. A folder, or any folder above it, swapped for a symlink or renamed away
// leads to another inode; a rename of the folder itself, or an entry added to or removed from it,
// changes its ctime (which, unlike mtime, no program can set back). What stays the same is only a
// folder above it moved elsewhere and linked back: the name then reaches the very same directory.
const MAX_FOLDERS = 256
const realFolders = new Map<string, KeptFolder>()

interface KeptFolder {
  real: string
  dev: number
  ino: number
  ctimeMs: number
}

export function createFsLookups(): FsLookups {
  return new CallLookups()
}

/** A class, not closures: one is made per classify call, and closures cost more to make. */
class CallLookups implements FsLookups {
  // Made on first use: most calls ask one or two of these questions, many none.
  private lstats?: Map<string, Stats | null>
  private stats?: Map<string, Stats | null>
  private reals?: Map<string, string | null>
  private folders?: Map<string, string | null>
  private listings?: Map<string, Dirent[] | null>

  lstat(file: string): Stats | null {
    this.lstats ??= new Map()
    return remember(this.lstats, file, () => lstatSync(file, { throwIfNoEntry: false }) ?? null)
  }

  stat(file: string): Stats | null {
    this.stats ??= new Map()
    return remember(this.stats, file, () => {
      // Asked as an lstat first: an entry that is not a symlink is what stat would find (the same
      // walk to it, nothing to follow at its end), and a path lstat cannot reach stat cannot reach
      // either. The path checks lstat the files the walk and glob checks stat, and git's checks stat
      // and lstat the same folders: each question is then one syscall, of a few microseconds.
      const entry = this.lstat(file)
      return entry?.isSymbolicLink() ? (statSync(file, { throwIfNoEntry: false }) ?? null) : entry
    })
  }

  realpath(file: string): string | null {
    this.reals ??= new Map()
    // realpath fails for whatever lstat cannot find, and building that exception costs more than
    // the lstat: most paths a command names do not exist where classify runs.
    return remember(this.reals, file, () => (this.lstat(file) === null ? null : realpathSync.native(file)))
  }

  realFolder(dir: string): string | null {
    this.folders ??= new Map()
    // Its stat is the call's: the walk up for git and the path checks ask about the same folders.
    return remember(this.folders, dir, () => sharedRealFolder(dir, this.stat(dir)))
  }

  readdir(dir: string): Dirent[] | null {
    this.listings ??= new Map()
    return remember(this.listings, dir, () => readdirSync(dir, { withFileTypes: true }))
  }
}

/** One answer per key; a lookup that throws (EACCES, ELOOP, ENAMETOOLONG…) answers null. */
function remember<T>(map: Map<string, T | null>, key: string, look: () => T | null): T | null {
  const known = map.get(key)
  if (known !== undefined) return known
  if (map.has(key)) return null
  let found: T | null
  try {
    found = look()
  } catch {
    found = null
  }
  map.set(key, found)
  return found
}

/** `now`: the folder's stat (following symlinks) in this call, null when it does not resolve. */
function sharedRealFolder(dir: string, now: Stats | null): string | null {
  if (!now?.isDirectory()) return now ? realpathSync.native(dir) : null
  const kept = realFolders.get(dir)
  if (kept && kept.ino === now.ino && kept.dev === now.dev && kept.ctimeMs === now.ctimeMs) return kept.real
  const real = realpathSync.native(dir)
  // The stat and the realpath are two looks: keep the answer only when both saw the same folder.
  const after = statSync(real, { throwIfNoEntry: false })
  if (after?.ino !== now.ino || after.dev !== now.dev || after.ctimeMs !== now.ctimeMs) return real
  if (realFolders.size >= MAX_FOLDERS) realFolders.clear()
  realFolders.set(dir, { real, dev: now.dev, ino: now.ino, ctimeMs: now.ctimeMs })
  return real
}
