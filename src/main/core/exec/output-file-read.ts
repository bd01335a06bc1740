import { constants } from 'node:fs'
import type { Stats } from 'node:fs'
import { type FileHandle, lstat, open } from 'node:fs/promises'
import type { FileIdentity, OutputFileRef } from './types'

/** The path no longer names the file the run wrote: a symlink, another file, or not a regular file. */
export class SwappedOutputFileError extends Error {
  readonly code = 'output_file_swapped'
}

/**
 * Opens a finished run's output file for reading, never through a symlink (O_NOFOLLOW, also
 * O_NONBLOCK so a FIFO swapped in cannot hang the read) and only when it is still the file the
 * run created (same device and inode): a repository's command could otherwise swap the path for
 * a link to ~/.ssh/id_rsa and have Shellgate read that into the model's view. Null when the file
 * is gone.
 */
export async function openOutputFileForRead(
  path: string,
  expected: FileIdentity | undefined,
  platform: NodeJS.Platform,
): Promise<FileHandle | null> {
  const flags =
    platform === 'win32'
      ? constants.O_RDONLY
      : constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
  const handle = await open(path, flags).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    if (error.code === 'ELOOP')
      throw new SwappedOutputFileError(`${path} was replaced by a symlink after the run`)
    throw error
  })
  if (handle === null) return null
  const stats = await handle.stat()
  const same = expected === undefined || (stats.dev === expected.dev && stats.ino === expected.ino)
  if (!stats.isFile() || !same) {
    await handle.close()
    throw new SwappedOutputFileError(`${path} is no longer the file the command wrote to`)
  }
  return handle
}

/** The output file's size and times, or null when the path is gone or names another file now. */
export async function statOutputFile(file: OutputFileRef): Promise<Stats | null> {
  const stats = await lstat(file.path).catch(() => null)
  if (!stats?.isFile() || stats.dev !== file.identity.dev || stats.ino !== file.identity.ino) return null
  return stats
}
