import { randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** Settings may hold proxy credentials: only the owner reads them. */
export const SETTINGS_FILE_MODE = 0o600

/**
 * Replaces `path` with `data` so that a reader (or a crash) only ever sees the old file or the new
 * one, never a prefix: the bytes go to a temp file in the same directory (rename is atomic only
 * within one filesystem), are fsynced, and only then renamed over the target.
 */
export async function writeFileAtomic(path: string, data: string, mode = SETTINGS_FILE_MODE): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  // 'wx' refuses to follow a planted file or symlink at the temp name.
  const handle = await open(temp, 'wx', mode)
  try {
    try {
      await handle.writeFile(data, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }
  await syncDirectory(dirname(path))
}

/** Makes the rename itself durable; some platforms (Windows) cannot open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Durability of the directory entry is best effort; the file content is already synced.
  }
}
