import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { link, open, rename, unlink } from 'node:fs/promises'

/**
 * run/hub.lock makes "one core per SHELLGATE_HOME" hold when two hubs start at once: it is created
 * with O_EXCL (exactly one creator wins) and holds the winner's pid for the hub's whole life.
 */
export interface HubLock {
  readonly file: string
  release(): Promise<void>
}

export type LockOutcome = { kind: 'acquired'; lock: HubLock } | { kind: 'held'; pid: number | null }

const ATTEMPTS = 3

export async function acquireHubLock(
  file: string,
  isAlive: (pid: number) => boolean = processIsAlive,
): Promise<LockOutcome> {
  const content = `${process.pid}\n${randomBytes(8).toString('hex')}\n`
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const handle = await open(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    ).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return null
      throw error
    })
    if (handle) {
      try {
        await handle.writeFile(content)
      } finally {
        await handle.close()
      }
      return { kind: 'acquired', lock: ownLock(file, content) }
    }
    const seen = await readLock(file)
    if (seen === null) continue // released between our open and our read: try again
    if (seen.pid !== null && isAlive(seen.pid)) return { kind: 'held', pid: seen.pid }
    // The holder is gone (crashed). Move its lock aside, and only delete what we moved if it is
    // still the dead holder's: another starter may have broken it and taken it a moment ago.
    const aside = `${file}.${randomBytes(6).toString('hex')}.stale`
    const moved = await rename(file, aside).then(
      () => true,
      () => false,
    )
    if (!moved) continue
    const movedLock = await readLock(aside)
    const movedContent = movedLock?.text ?? null
    if (movedContent !== seen.text) {
      // We moved a live lock: put it back (link fails if a third starter has one already).
      await link(aside, file).catch(() => undefined)
      await unlink(aside).catch(() => undefined)
      return { kind: 'held', pid: movedLock?.pid ?? null }
    }
    await unlink(aside).catch(() => undefined)
  }
  const last = await readLock(file)
  return { kind: 'held', pid: last?.pid ?? null }
}

function ownLock(file: string, content: string): HubLock {
  let released = false
  return {
    file,
    async release() {
      if (released) return
      released = true
      // Only our own lock is removed; a lock someone else took over after a crash stays.
      const current = await readLock(file)
      if (current?.text === content) await unlink(file).catch(() => undefined)
    },
  }
}

async function readLock(file: string): Promise<{ text: string; pid: number | null } | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => null,
  )
  if (!handle) return null
  try {
    const info = await handle.stat()
    // A planted FIFO or directory is not a lock; treat it as broken and let rename move it aside.
    if (!info.isFile() || info.size > 256) return { text: '\0not-a-lock', pid: null }
    const text = await handle.readFile('utf8')
    return { text, ...parseLock(text) }
  } finally {
    await handle.close()
  }
}

function parseLock(text: string): { pid: number | null } {
  const pid = Number(text.split('\n')[0])
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : null }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else, which still means the pid is taken.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
