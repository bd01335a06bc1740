import { execFile } from 'node:child_process'
import { accessSync, constants, existsSync, realpathSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { shQuote } from '../../core/shell/posix-quote'

/** How a client starts Shellgate: `command args… mcp`, and the same words as shell text for hooks. */
export interface Launcher {
  command: string
  args: string[]
  /** `shellgate` was found on PATH; otherwise the words are this install's absolute paths. */
  onPath: boolean
}

/** What `connect` prints before it knows better; every snippet starts from it. */
export const PLAIN_LAUNCHER: Launcher = { command: 'shellgate', args: [], onPath: true }

/** `--version` prints one line at once; a launcher slower than this will not start for a client either. */
const VERSION_CHECK_TIMEOUT_MS = 20_000

/** The launcher as one line of POSIX shell, for a hook's command string. */
export function launcherText(launcher: Launcher, args: readonly string[] = []): string {
  return [launcher.command, ...launcher.args, ...args].map(word).join(' ')
}

/**
 * `shellgate` when it is on the client's PATH (the README's `npm link` puts it there), else this
 * very install, absolutely: the node binary, its flags (a loader under tsx) and the entry script,
 * so the command works from any folder and any PATH the client gives its servers.
 */
export function launcherFor(env: Readonly<Record<string, string | undefined>>): Launcher {
  if (findOnPath('shellgate', env.PATH ?? '')) return PLAIN_LAUNCHER
  const entry = process.argv[1]
  if (!entry) throw new Error('cannot tell how this Shellgate was started (no entry script)')
  return {
    command: process.execPath,
    args: [...process.execArgv, realpathSync(entry)],
    onPath: false,
  }
}

/** The folder of this install (its package.json), from the entry script. */
export function installRoot(): string {
  let dir = dirname(realpathSync(process.argv[1] ?? '.'))
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const up = dirname(dir)
    if (up === dir) return dirname(realpathSync(process.argv[1] ?? '.'))
    dir = up
  }
}

export function findOnPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here.
    }
  }
  return null
}

/**
 * Runs `<launcher> --version` from `/` with the client's environment: a command that would not
 * start for the client (not found, a build missing, a broken node) is never written.
 */
export function checkLauncher(
  launcher: Launcher,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(
      launcher.command,
      [...launcher.args, '--version'],
      { cwd: '/', env: env as NodeJS.ProcessEnv, timeout: VERSION_CHECK_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const version = stdout.trim()
        if (!error && /^\d+\.\d+\.\d+/.test(version)) return resolve({ ok: true, version })
        const said = (stderr.trim() || stdout.trim() || (error?.message ?? '')).split('\n')[0]
        resolve({ ok: false, reason: `\`${launcherText(launcher, ['--version'])}\` did not start: ${said}` })
      },
    )
  })
}

function word(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shQuote(value)
}
