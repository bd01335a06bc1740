import { mkdir, open, stat, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from './atomic-write'
import { contentHash, type OwnedFileContent, readOwnedFile } from './owned-file'
import { SettingsError } from './settings-error'

/** A writer that died holding the lock leaves it behind; after this long it is taken over. */
export const SWAP_LOCK_STALE_MS = 10_000
/** How long a writer waits for another writer (another process) before refusing with a message. */
export const SWAP_LOCK_WAIT_MS = 3_000
const SWAP_LOCK_RETRY_MS = 15

export interface SwapResult {
  /** False when the update returned null (nothing to change). */
  written: boolean
  /** The file as it is now on disk (after the write, or as re-read when nothing was written). */
  text: string | null
  hash: string | null
}

/**
 * Compare-and-swap for one file shared by several writers (two hubs on one home during a
 * takeover, a CLI, a person with an editor). Under a lock file, the current bytes are re-read and
 * handed to `update`, which re-applies its semantic change (add a rule, set a mode) on top of them,
 * so a change made underneath since the caller last looked is merged, never overwritten. `update`
 * throws to refuse (a genuine conflict, or a file that is not valid now) and returns null when the
 * fresh content already says what it wants.
 */
export async function swapFile(
  file: string,
  maxBytes: number,
  update: (current: OwnedFileContent | null) => string | null,
): Promise<SwapResult> {
  return withSwapLock(file, async () => {
    const current = await readOwnedFile(file, maxBytes)
    const next = update(current)
    if (next === null) return { written: false, text: current?.text ?? null, hash: current?.hash ?? null }
    await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    await writeFileAtomic(file, next)
    return { written: true, text: next, hash: contentHash(next) }
  })
}

// In one process the writers of a file queue here; the lock file orders them across processes.
const localQueues = new Map<string, Promise<unknown>>()

async function withSwapLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  const previous = localQueues.get(file) ?? Promise.resolve()
  const run = previous.then(async () => {
    const release = await acquireLockFile(`${file}.lock`)
    try {
      return await task()
    } finally {
      await release()
    }
  })
  const settled = run.catch(() => {})
  localQueues.set(file, settled)
  void settled.then(() => {
    if (localQueues.get(file) === settled) localQueues.delete(file)
  })
  return run
}

async function acquireLockFile(lock: string): Promise<() => Promise<void>> {
  await mkdir(dirname(lock), { recursive: true, mode: 0o700 })
  const deadline = Date.now() + SWAP_LOCK_WAIT_MS
  for (;;) {
    try {
      // 'wx' (O_EXCL) never follows a planted symlink and fails when another writer holds it.
      const handle = await open(lock, 'wx', 0o600)
      await handle.writeFile(`${process.pid}\n`)
      await handle.close()
      return () => unlink(lock).catch(() => {})
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (await isStale(lock)) {
      await unlink(lock).catch(() => {})
      continue
    }
    if (Date.now() > deadline) {
      throw new SettingsError(
        '',
        `another Shellgate process is writing ${lock.slice(0, -'.lock'.length)} (its lock ${lock} is held); nothing was written, try again`,
        'unwritable',
      )
    }
    await new Promise((resolve) => setTimeout(resolve, SWAP_LOCK_RETRY_MS))
  }
}

/** A lock whose writer is gone (no such pid) or that is older than any write takes. */
async function isStale(lock: string): Promise<boolean> {
  const info = await stat(lock).catch(() => null)
  if (info === null) return false
  if (Date.now() - info.mtimeMs > SWAP_LOCK_STALE_MS) return true
  const owner = await readOwnedFile(lock, 64).catch(() => null)
  const pid = Number.parseInt(owner?.text ?? '', 10)
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
