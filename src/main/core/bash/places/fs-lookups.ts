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
  /** The real path of a folder, shared between calls for FOLDER_TTL_MS (see below). */
  realFolder(dir: string): string | null
  /** The entries of a folder with their types, or null when it cannot be read. */
  readdir(dir: string): Dirent[] | null
}

// Real paths of folders, for a second, across calls: resolving every component of the cwd on each
// classify was most of its cost. A folder swapped for a symlink within that second is the same race
// as one swapped between classify and run, which no check before running can close.
const FOLDER_TTL_MS = 1_000
const MAX_FOLDERS = 256
const realFolders = new Map<string, { real: string | null; at: number }>()

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
    return remember(this.stats, file, () => statSync(file, { throwIfNoEntry: false }) ?? null)
  }

  realpath(file: string): string | null {
    this.reals ??= new Map()
    // realpath fails for whatever lstat cannot find, and building that exception costs more than
    // the lstat: most paths a command names do not exist where classify runs.
    return remember(this.reals, file, () => (this.lstat(file) === null ? null : realpathSync.native(file)))
  }

  realFolder(dir: string): string | null {
    this.folders ??= new Map()
    return remember(this.folders, dir, () => sharedRealFolder(dir))
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

function sharedRealFolder(dir: string): string | null {
  const now = Date.now()
  const cached = realFolders.get(dir)
  if (cached && now - cached.at < FOLDER_TTL_MS) return cached.real
  let real: string | null
  try {
    real = lstatSync(dir, { throwIfNoEntry: false }) ? realpathSync.native(dir) : null
  } catch {
    real = null
  }
  if (realFolders.size >= MAX_FOLDERS) realFolders.clear()
  realFolders.set(dir, { real, at: now })
  return real
}
