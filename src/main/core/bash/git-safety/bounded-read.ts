import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'

/**
 * Every file the git-safety walk reads lives in a repository an attacker may have written: a FIFO
 * there would block a plain read forever, /dev/zero would fill memory, a symlink could point
 * anywhere. So each read opens without blocking (a FIFO opens at once), checks the opened file is a
 * regular file, and reads at most `maxBytes`.
 */

export interface BoundedReadOptions {
  maxBytes: number
  /** False where git itself writes a plain file (HEAD, commondir, the index, a gitdir file). */
  followSymlinks: boolean
}

/** The file's bytes, or null when it does not exist; throws with a reason for anything else. */
export function readRegularFile(file: string, options: BoundedReadOptions): Buffer | null {
  const flags =
    constants.O_RDONLY | constants.O_NONBLOCK | (options.followSymlinks ? 0 : constants.O_NOFOLLOW)
  let fd: number
  try {
    fd = openSync(file, flags)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    if (code === 'ELOOP') throw new Error(`${file} is a symlink where git writes a plain file`)
    throw new Error(`${file} cannot be opened (${code ?? (error as Error).message})`)
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new Error(`${file} is not a regular file (${describeKind(stats)})`)
    if (stats.size > options.maxBytes) throw new Error(`${file} is over ${options.maxBytes} bytes`)
    // One byte more than fstat reported tells a file that grew since from one that did not.
    const buffer = Buffer.alloc(stats.size + 1)
    let length = 0
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null)
      if (read === 0) break
      length += read
    }
    if (length > stats.size) throw new Error(`${file} changed while it was read`)
    return buffer.subarray(0, length)
  } finally {
    closeSync(fd)
  }
}

function describeKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  if (stats.isDirectory()) return 'a directory'
  return 'not a plain file'
}
