import { homedir } from 'node:os'
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { type RunProbe, runProbeProcess } from './probe-process'
import { shQuote, toGitBashPath } from './posix-quote'
import { buildSnapshotScript, GIT_BASH_PATH_SCRIPT, type SnapshotDialect } from './snapshot-script'

/** seed 000: generating a snapshot may take this long before commands fall back to `-l`. */
export const SNAPSHOT_TIMEOUT_MS = 10_000
/** seed 000: output of the generator (rc noise) kept at most. */
export const SNAPSHOT_MAX_OUTPUT_BYTES = 1024 * 1024
/** seed 000: files older than this are removed when the service starts. */
export const SNAPSHOT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

export type ShellSnapshot =
  | { status: 'ready'; path: string; dialect: SnapshotDialect; shellPath: string }
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
    const result = await run(
      { file: shellPath, args: ['-c', '-l', buildSnapshotScript(dialect, shellFile)] },
      {
        env,
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
        { env, timeoutMs, maxOutputBytes: SNAPSHOT_MAX_OUTPUT_BYTES },
      )
      const line = path.stdout.trim().split('\n').pop()
      if (path.status === 'completed' && line) {
        const handle = await open(file, 'a')
        await handle.appendFile(`export PATH=${shQuote(line)}\n`)
        await handle.close()
      }
    }
    return { status: 'ready', path: file, dialect, shellPath }
  }

  return {
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
      if (result.status === 'ready' && !(await isNonEmptyFile(result.path))) {
        // Deleted behind our back (a cleanup, the user): this command runs with -l, the next regenerates.
        pending.delete(key)
        return {
          status: 'unavailable',
          reason: `the snapshot ${result.path} is gone; it will be regenerated`,
          loginFallback: true,
        }
      }
      return result
    },
    async close() {
      const files = [...generated]
      generated.clear()
      pending.clear()
      await Promise.all(files.map((file) => rm(file, { force: true })))
    },
  }
}

async function isNonEmptyFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path)
    return info.isFile() && info.size > 0
  } catch {
    return false
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
