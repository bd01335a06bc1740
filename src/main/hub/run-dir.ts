import { type Stats, lstatSync } from 'node:fs'
import { chmod, lstat, mkdir, open, readFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { HubError } from './hub-error'

/** What is wrong with run/ as a private directory, or null when it is one. Pure, table-tested. */
export function runDirProblem(
  info: Pick<Stats, 'uid' | 'mode'> & { isDirectory(): boolean; isSymbolicLink(): boolean },
  uid: number,
): 'not_a_directory' | 'not_owned' | 'too_open' | null {
  if (info.isSymbolicLink() || !info.isDirectory()) return 'not_a_directory'
  if (info.uid !== uid) return 'not_owned'
  if ((info.mode & 0o077) !== 0) return 'too_open'
  return null
}

const currentUid = () => process.getuid?.() ?? -1

/**
 * The hub's side: creates run/ 0700, or accepts it when it is ours. A run/ of ours that is open to
 * others is closed (chmod 0700) and reported; one that is not ours, or not a directory, is refused.
 */
export async function ensureRunDir(runDir: string, warn: (message: string) => void): Promise<void> {
  await mkdir(runDir, { recursive: true, mode: 0o700 })
  const problem = runDirProblem(await lstat(runDir), currentUid())
  if (problem === 'too_open') {
    await chmod(runDir, 0o700)
    warn(`${runDir} was open to other users; its mode is now 0700`)
    return
  }
  if (problem) throw unsafe(runDir, problem)
}

/**
 * The client's side: 'missing' when run/ does not exist; refuses one that is not private to this
 * user. Synchronous, as the client's other checks: one lstat on the hook's path, where the first
 * asynchronous file call would start libuv's thread pool for it (issue 20.6).
 */
export function checkRunDir(runDir: string): 'missing' | 'ok' {
  const info = lstatSync(runDir, { throwIfNoEntry: false })
  if (!info) return 'missing'
  const problem = runDirProblem(info, currentUid())
  if (problem) throw unsafe(runDir, problem)
  return 'ok'
}

function unsafe(runDir: string, problem: 'not_a_directory' | 'not_owned' | 'too_open'): HubError {
  const why = {
    not_a_directory: 'is not a directory (a symlink or a file)',
    not_owned: 'belongs to another user',
    too_open: 'is readable or writable by other users (want mode 0700)',
  }[problem]
  return new HubError(
    'hub_run_dir_unsafe',
    `${runDir} ${why}; Shellgate will not trust a hub endpoint there. Fix or remove it, then try again`,
  )
}

/** Windows: the pipe name's salt, created once with O_EXCL and never shown to anyone else. */
export async function readOrCreatePipeSalt(runDir: string): Promise<string> {
  const file = join(runDir, 'pipe.salt')
  const existing = await readFile(file, 'utf8').catch(() => null)
  if (existing && /^[0-9a-f]{32}$/.test(existing.trim())) return existing.trim()
  const salt = randomBytes(16).toString('hex')
  const handle = await open(file, 'wx', 0o600).catch(() => null)
  if (!handle) return (await readFile(file, 'utf8')).trim()
  await handle.writeFile(salt)
  await handle.close()
  return salt
}
