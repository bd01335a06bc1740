import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { link, lstat, open, rename, rm, unlink, writeFile } from 'node:fs/promises'

/**
 * run/hub.lock makes "one core per SHELLGATE_HOME" hold when two hubs start at once, and holds the
 * winner's pid for the hub's whole life.
 *
 * The lock only ever appears whole: it is written to a file of our own first and then linked into
 * place, and link fails if the name exists. (Creating it with O_EXCL and writing afterwards left a
 * moment in which another starter read an empty lock, took it for a dead one and broke it.)
 *
 * A dead holder's lock is broken by one starter at a time, the one that creates run/hub.lock.break.
 * Removing a file by name is not compare-and-swap: two starters that both saw the dead lock could
 * otherwise each remove what the name held, the second removing the first one's fresh lock.
 */
export interface HubLock {
  readonly file: string
  release(): Promise<void>
}

export type LockOutcome = { kind: 'acquired'; lock: HubLock } | { kind: 'held'; pid: number | null }

/** How long a starter waits, in all, for another starter that is breaking a dead lock. */
const WAIT_FOR_BREAKER_MS = 2_000
const POLL_MS = 5
/** A break takes microseconds: a guard this old was left by a starter that died mid-break. */
const ABANDONED_GUARD_MS = 10_000

export async function acquireHubLock(
  file: string,
  isAlive: (pid: number) => boolean = processIsAlive,
): Promise<LockOutcome> {
  const content = `${process.pid}\n${randomBytes(8).toString('hex')}\n`
  const own = `${file}.${randomBytes(6).toString('hex')}.new`
  await writeFile(own, content, { flag: 'wx', mode: 0o600 })
  try {
    const deadline = Date.now() + WAIT_FOR_BREAKER_MS
    while (Date.now() <= deadline) {
      if (await linkInto(own, file)) return { kind: 'acquired', lock: ownLock(file, content) }
      const seen = await readLock(file)
      if (seen === null) continue // released between our link and our read: try again
      if (seen.pid !== null && isAlive(seen.pid)) return { kind: 'held', pid: seen.pid }
      const broken = await breakDeadLock(file, seen.text, own, isAlive)
      if (broken === 'acquired') return { kind: 'acquired', lock: ownLock(file, content) }
      if (broken === 'busy') await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    // Another starter kept the dead lock's guard all this while; whoever ends up holding the
    // lock, it is not us, and no live pid has been seen to name.
    return { kind: 'held', pid: null }
  } finally {
    await unlink(own).catch(() => undefined)
  }
}

/** link(2) fails if `to` exists, so exactly one of several linkers wins the name. */
async function linkInto(from: string, to: string): Promise<boolean> {
  return link(from, to).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false
      throw error
    },
  )
}

/**
 * Replaces the dead lock whose text was `deadText` with ours, holding the guard while it does.
 * 'retry' means the lock changed under us (look again); 'busy' means another starter is breaking it.
 */
async function breakDeadLock(
  file: string,
  deadText: string,
  own: string,
  isAlive: (pid: number) => boolean,
): Promise<'acquired' | 'retry' | 'busy'> {
  const guard = `${file}.break`
  if (!(await linkInto(own, guard))) {
    await removeAbandonedGuard(guard, isAlive)
    return 'busy'
  }
  try {
    // Only a guard holder removes a dead lock, so if the name still holds the dead text now, it
    // holds it until we move it: nobody else can take a name that is not free.
    const now = await readLock(file)
    if (now?.text !== deadText) return 'retry'
    const aside = `${file}.${randomBytes(6).toString('hex')}.dead`
    await rename(file, aside)
    // A starter that found the name free between these two steps won it fairly; we did not.
    const won = await linkInto(own, file)
    // The dead lock may be a planted directory or FIFO; rm removes it without following links.
    await rm(aside, { recursive: true, force: true })
    return won ? 'acquired' : 'retry'
  } finally {
    await unlink(guard).catch(() => undefined)
  }
}

async function removeAbandonedGuard(guard: string, isAlive: (pid: number) => boolean): Promise<void> {
  const holder = await readLock(guard)
  if (!holder) return
  // The guard is a link to its breaker's own lock file, written when that breaker started.
  const info = await lstat(guard).catch(() => null)
  const old = info !== null && Date.now() - info.mtimeMs > ABANDONED_GUARD_MS
  if (holder.pid !== null && isAlive(holder.pid) && !old) return
  // Read, then unlink: a second breaker could slip in only after a first one died inside its
  // break and two more starters arrived at once; that is rare enough to accept here.
  if ((await readLock(guard))?.text === holder.text) await unlink(guard).catch(() => undefined)
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
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      // A planted symlink is not a lock, but it does hold the name. Anything else we cannot open
      // (another user's lock, say) is not ours to break: the starter fails and says why.
      if (error.code === 'ELOOP') return 'unreadable' as const
      throw error
    },
  )
  if (handle === null) return null
  if (handle === 'unreadable') return { text: '\0not-a-lock', pid: null }
  try {
    const info = await handle.stat()
    // A planted FIFO or directory is not a lock; treat it as broken and let the breaker move it.
    if (!info.isFile() || info.size > 256) return { text: `\0not-a-lock ${info.ino}`, pid: null }
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
