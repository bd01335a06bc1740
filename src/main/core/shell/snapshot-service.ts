import { homedir } from 'node:os'
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { appendFile, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { type RunProbe, runProbeProcess } from './probe-process'
import { readSnapshotGlobOptions } from './snapshot-glob-options'
import { shQuote, toGitBashPath } from './posix-quote'
import { QUIET_RC_ENV } from '../env/login-shell-probe'
import {
  buildSnapshotScript,
  GIT_BASH_PATH_SCRIPT,
  SNAPSHOT_SENTINEL_LINE,
  type SnapshotDialect,
} from './snapshot-script'

/** seed 000: generating a snapshot may take this long before commands fall back to `-l`. */
export const SNAPSHOT_TIMEOUT_MS = 10_000
/** seed 000: output of the generator (rc noise) kept at most. */
export const SNAPSHOT_MAX_OUTPUT_BYTES = 1024 * 1024
/** seed 000: files older than this are removed when the service starts. */
export const SNAPSHOT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

export type ShellSnapshot =
  | {
      status: 'ready'
      path: string
      dialect: SnapshotDialect
      shellPath: string
      /** The glob options it replays (dotglob, extglob…), for the verdict (snapshot-glob-options.ts). */
      globOptions?: ReadonlySet<string>
    }
  | {
      status: 'unavailable'
      reason: string
      /**
       * Whether commands should run as login shells instead (seed 000). Not after a timeout: the
       * rc files that hung the generator would hang every command the same way.
       */
      loginFallback: boolean
    }

export interface ShellSnapshotServiceOptions {
  /** SHELLGATE_HOME; files go to <dataDir>/exec/shell-snapshots. */
  dataDir: string
  platform: NodeJS.Platform
  runProbe?: RunProbe
  now?: () => number
  /** Default SNAPSHOT_TIMEOUT_MS. */
  timeoutMs?: number
}

export interface ShellSnapshotService {
  readonly dir: string
  /** Settles once the 30-day cleanup done at start has finished. */
  readonly ready: Promise<void>
  /**
   * The snapshot for this shell, generated once per (dialect, shell path) and re-checked before
   * every use; `unavailable` (with why) means run the command as a login shell instead.
   * `env` is the child env the generator runs with (BASH_ENV-free, see buildChildEnv).
   */
  ensureShellSnapshot(
    shell: { dialect: SnapshotDialect; path: string },
    env: Record<string, string>,
  ): Promise<ShellSnapshot>
  /**
   * The glob options of the last snapshot generated for this shell, or null before there is one:
   * the verdict matches globs the way the command's shell will (issue 21.2).
   */
  globOptions(shell: { dialect: SnapshotDialect; path: string }): ReadonlySet<string> | null
  /** Deletes the files this service generated; safe to call twice. */
  close(): Promise<void>
}

export function snapshotDir(dataDir: string): string {
  return join(dataDir, 'exec', 'shell-snapshots')
}

export function createShellSnapshotService(options: ShellSnapshotServiceOptions): ShellSnapshotService {
  const dir = snapshotDir(options.dataDir)
  const now = options.now ?? Date.now
  const run = options.runProbe ?? runProbeProcess
  const pending = new Map<string, Promise<ShellSnapshot>>()
  const generated = new Set<string>()
  // What each snapshot was when we finished writing it: a file changed since is not ours any more.
  const identities = new Map<string, SnapshotIdentity>()
  const timeoutMs = options.timeoutMs ?? SNAPSHOT_TIMEOUT_MS
  const globOptionsByShell = new Map<string, ReadonlySet<string>>()
  const ready = removeOldSnapshots(dir, now() - SNAPSHOT_MAX_AGE_MS)

  async function generate(
    dialect: SnapshotDialect,
    shellPath: string,
    env: Record<string, string>,
  ): Promise<ShellSnapshot> {
    await ready
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const file = join(dir, `snapshot-${dialect}-${now()}-${randomBytes(6).toString('hex')}.sh`)
    // Created 0600 before the shell writes it: rc output may include paths the user keeps private.
    await (await open(file, 'wx', 0o600)).close()
    generated.add(file)
    const shellFile = options.platform === 'win32' ? toGitBashPath(file) : file
    // The rc files run as carefully as for the login capture: no update prompts, and a marker
    // they can test to skip what only a terminal needs.
    const rcEnv = { ...env, ...QUIET_RC_ENV }
    const result = await run(
      { file: shellPath, args: ['-c', '-l', buildSnapshotScript(dialect, shellFile)] },
      {
        env: rcEnv,
        // rc hooks keyed on $PWD (mise, direnv, nvm auto-use) must not bake the launch folder, maybe
        // a hostile repository, into a snapshot every session reuses.
        cwd: env.HOME || homedir(),
        timeoutMs,
        maxOutputBytes: SNAPSHOT_MAX_OUTPUT_BYTES,
        onOutputLimit: 'terminate',
      },
    )
    const size = await stat(file).then(
      (s) => s.size,
      () => 0,
    )
    if (result.status !== 'completed' || size === 0) {
      await rm(file, { force: true })
      generated.delete(file)
      const why = result.timedOut
        ? `timed out after ${timeoutMs / 1000} s; commands run without the rc files`
        : `exited with ${result.exitCode ?? result.exitSignal ?? result.spawnError?.code}`
      return {
        status: 'unavailable',
        reason: `generating the ${dialect} snapshot with ${shellPath} ${why}`,
        loginFallback: !result.timedOut,
      }
    }
    if (dialect === 'git-bash') {
      const path = await run(
        { file: shellPath, args: ['-lc', GIT_BASH_PATH_SCRIPT] },
        { env: rcEnv, timeoutMs, maxOutputBytes: SNAPSHOT_MAX_OUTPUT_BYTES },
      )
      const line = path.stdout.trim().split('\n').pop()
      if (path.status === 'completed' && line) {
        const handle = await open(file, 'a')
        await handle.appendFile(`export PATH=${shQuote(line)}\n`)
        await handle.close()
      }
    }
    // Written last, by us: a file that ends without it was cut short.
    await appendFile(file, `${SNAPSHOT_SENTINEL_LINE}\n`)
    const globOptions = readSnapshotGlobOptions(await readFile(file, 'utf8'), dialect)
    globOptionsByShell.set(`${dialect}\0${shellPath}`, globOptions)
    const identity = await identityOf(file)
    if (identity) identities.set(file, identity)
    return { status: 'ready', path: file, dialect, shellPath, globOptions }
  }

  const service: ShellSnapshotService = {
    dir,
    ready,
    async ensureShellSnapshot(shell, env) {
      const key = `${shell.dialect}\0${shell.path}`
      let snapshot = pending.get(key)
      if (!snapshot) {
        snapshot = generate(shell.dialect, shell.path, env)
        pending.set(key, snapshot)
      }
      const result = await snapshot
      const problem =
        result.status === 'ready' ? await snapshotFileProblem(result.path, identities.get(result.path)) : null
      if (result.status === 'ready' && problem === 'gone' && (await removeFailedMark(result.path))) {
        // A command found it would not source and moved it aside (bash-command-line.ts): that
        // command already ran as a login shell, so this one gets a fresh capture.
        pending.delete(key)
        generated.delete(result.path)
        identities.delete(result.path)
        // A run without the snapshot may set any glob option: every one counts as possibly on.
        globOptionsByShell.delete(key)
        return service.ensureShellSnapshot(shell, env)
      }
      if (result.status === 'ready' && problem) {
        // Deleted or cut behind our back (a cleanup, the user, a full disk, a failed source that
        // removed it): this command runs with -l, the next regenerates.
        pending.delete(key)
        generated.delete(result.path)
        identities.delete(result.path)
        // A run without the snapshot may set any glob option: every one counts as possibly on.
        globOptionsByShell.delete(key)
        if (problem !== 'gone') await rm(result.path, { force: true })
        return {
          status: 'unavailable',
          reason: `the snapshot ${result.path} is ${problem}; it will be regenerated`,
          loginFallback: true,
        }
      }
      return result
    },
    globOptions(shell) {
      return globOptionsByShell.get(`${shell.dialect}\0${shell.path}`) ?? null
    },
    async close() {
      const files = [...generated]
      generated.clear()
      identities.clear()
      pending.clear()
      await Promise.all(files.map((file) => rm(file, { force: true })))
    },
  }
  return service
}

/** True when a command moved the snapshot aside as failed; the mark is removed. */
async function removeFailedMark(path: string): Promise<boolean> {
  const failed = `${path}.failed`
  const found = await stat(failed).then(
    (info) => info.isFile(),
    () => false,
  )
  if (found) await rm(failed, { force: true })
  return found
}

/**
 * The file as we left it: ctime cannot be set back by a writer, so any change to the content (or to
 * the file's metadata) after we finished shows, even one that keeps the size and the last line.
 */
interface SnapshotIdentity {
  dev: bigint
  ino: bigint
  size: bigint
  ctimeNs: bigint
  mtimeNs: bigint
}

async function identityOf(path: string): Promise<SnapshotIdentity | null> {
  const info = await stat(path, { bigint: true }).catch(() => null)
  if (!info) return null
  return { dev: info.dev, ino: info.ino, size: info.size, ctimeNs: info.ctimeNs, mtimeNs: info.mtimeNs }
}

type SnapshotProblem = 'gone' | 'truncated' | 'changed'

/**
 * Checked before every use (seed 000: validate before use). 'gone'; 'truncated' (it does not end
 * with the sentinel line); 'changed' (not the file we wrote: rewritten, edited, replaced, even when
 * its last line survived, which would source silently without the user's functions); or null.
 * Opened non-blocking and without following a link, so a FIFO or a symlink put there cannot hang
 * or redirect the check.
 */
async function snapshotFileProblem(
  path: string,
  expected: SnapshotIdentity | undefined,
): Promise<SnapshotProblem | null> {
  const ending = `${SNAPSHOT_SENTINEL_LINE}\n`
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch {
    return 'gone'
  }
  try {
    const info = await handle.stat({ bigint: true })
    if (!info.isFile()) return 'gone'
    if (info.size < BigInt(ending.length)) return 'truncated'
    const tail = Buffer.alloc(ending.length)
    await handle.read(tail, 0, tail.length, Number(info.size) - tail.length)
    if (tail.toString('utf8') !== ending) return 'truncated'
    if (!expected) return null
    const same =
      info.dev === expected.dev &&
      info.ino === expected.ino &&
      info.size === expected.size &&
      info.ctimeNs === expected.ctimeNs &&
      info.mtimeNs === expected.mtimeNs
    return same ? null : 'changed'
  } finally {
    await handle.close()
  }
}

/** Files left by crashed or older processes; a missing directory is nothing to clean. */
async function removeOldSnapshots(dir: string, olderThanMs: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[])
  await Promise.all(
    names
      .filter((name) => name.startsWith('snapshot-') && name.endsWith('.sh'))
      .map(async (name) => {
        const file = join(dir, name)
        const info = await stat(file).catch(() => null)
        if (info?.isFile() && info.mtimeMs < olderThanMs) await rm(file, { force: true })
      }),
  )
}
