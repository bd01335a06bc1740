import {
  closeSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  constants,
} from 'node:fs'

/** What a host path is, without following a final symlink; null when it does not exist. */
export function kindOf(path: string): 'dir' | 'file' | 'link' | 'socket' | 'other' | null {
  try {
    // Most paths asked about (the home secrets) do not exist: not throwing for those saves the
    // cost of an Error with its stack each, most of a layout's time.
    const stats = lstatSync(path, { throwIfNoEntry: false })
    if (!stats) return null
    if (stats.isSymbolicLink()) return 'link'
    if (stats.isDirectory()) return 'dir'
    if (stats.isFile()) return 'file'
    if (stats.isSocket()) return 'socket'
    return 'other'
  } catch {
    return null
  }
}

/** The real path (the kernel's realpath(3), not Node's component-by-component walk), or null. */
export function realOrNull(path: string): string | null {
  try {
    // A missing path (the common answer) is found without the cost of a thrown Error.
    if (!lstatSync(path, { throwIfNoEntry: false })) return null
    return realpathSync.native(path)
  } catch {
    return null
  }
}

/** `path` is `root` or below it (both absolute, normalised). */
export function isInside(path: string, root: string): boolean {
  if (root === '/') return path.startsWith('/')
  return path === root || path.startsWith(`${root}/`)
}

export function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path)
  } catch {
    return []
  }
}

/** Config files are small; one larger than this is not read, and counts as holding a credential. */
export const CONFIG_READ_LIMIT_BYTES = 1024 * 1024

/** The text of a small config file; null when it cannot be read or is over CONFIG_READ_LIMIT_BYTES. */
export function readText(path: string): string | null {
  let fd: number
  try {
    // Non-blocking: a FIFO planted where a config or to-do list should be must not hang the app.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) return null
    const size = stats.size
    if (size > CONFIG_READ_LIMIT_BYTES) return null
    const buffer = Buffer.alloc(size)
    const read = size === 0 ? 0 : readSync(fd, buffer, 0, size, 0)
    return buffer.subarray(0, read).toString('utf8')
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}
