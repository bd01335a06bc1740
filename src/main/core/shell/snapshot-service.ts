import { homedir } from 'node:os'
import { randomBytes } from 'node:crypto'
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
      const problem = result.status === 'ready' ? await snapshotFileProblem(result.path) : null
      if (result.status === 'ready' && problem === 'gone' && (await removeFailedMark(result.path))) {
        // A command found it would not source and moved it aside (bash-command-line.ts): that
        // command already ran as a login shell, so this one gets a fresh capture.
        pending.delete(key)
        generated.delete(result.path)
        return service.ensureShellSnapshot(shell, env)
      }
      if (result.status === 'ready' && problem) {
        // Deleted or cut behind our back (a cleanup, the user, a full disk, a failed source that
        // removed it): this command runs with -l, the next regenerates.
        pending.delete(key)
        generated.delete(result.path)
        if (problem === 'truncated') await rm(result.path, { force: true })
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

/** 'gone', 'truncated' (it does not end with the sentinel line) or null when it is whole. */
async function snapshotFileProblem(path: string): Promise<'gone' | 'truncated' | null> {
  const ending = `${SNAPSHOT_SENTINEL_LINE}\n`
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, 'r')
  } catch {
    return 'gone'
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) return 'gone'
    if (info.size < ending.length) return 'truncated'
    const tail = Buffer.alloc(ending.length)
    await handle.read(tail, 0, tail.length, info.size - tail.length)
    return tail.toString('utf8') === ending ? null : 'truncated'
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
