import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface RealRun {
  /** Whether the marker file exists after the command ran. */
  markerMade: boolean
  /** Whether the file `victim` (always planted) is gone after the command ran. */
  victimGone: boolean
  /** The text of every file in the directory after the run, by name (for "changed:" effects). */
  files: Record<string, string>
  status: number | null
  stderr: string
}

/**
 * Run `command` for real with bash in a fresh temp directory holding `plant` files (an input `f`
 * with two lines and a file `victim` are always there; `setup` runs first), and report whether it
 * created `marker` or removed `victim`. This is what proves a
 * bypass is real: the real tool on this machine wrote the file the classifier said it would not.
 */
export function runForReal(
  command: string,
  marker: string,
  plant: readonly string[] = [],
  setup = '',
  extraEnv: Readonly<Record<string, string>> = {},
): RealRun {
  const cwd = prepareDir(plant, setup)
  try {
    const run = spawnSync('bash', ['-c', command], {
      cwd,
      encoding: 'utf8',
      timeout: 10_000,
      // stdin /dev/null: Debian's bash sources ~/.bashrc when stdin is a socket, as Node's pipes are.
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...baseEnv(cwd), ...extraEnv },
    })
    return {
      markerMade: existsSync(join(cwd, marker)),
      victimGone: !existsSync(join(cwd, 'victim')),
      files: readTopLevelFiles(cwd),
      status: run.status,
      stderr: run.stderr,
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
}

/** A fresh temp directory with `f`, the planted files, `setup` run in it, then `victim`. */
export function prepareDir(plant: readonly string[] = [], setup = ''): string {
  const cwd = mkdtempSync(join(tmpdir(), 'shellgate-bypass-'))
  writeFileSync(join(cwd, 'f'), 'a/b\nline two\n')
  for (const name of plant) {
    mkdirSync(dirname(join(cwd, name)), { recursive: true })
    writeFileSync(join(cwd, name), 'planted\n')
  }
  if (setup) {
    const prepared = spawnSync('bash', ['-c', setup], {
      cwd,
      encoding: 'utf8',
      timeout: 10_000,
      env: baseEnv(cwd),
    })
    if (prepared.status !== 0) throw new Error(`setup failed: ${prepared.stderr}`)
  }
  writeFileSync(join(cwd, 'victim'), 'victim\n')
  return cwd
}

function baseEnv(cwd: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' }
}

function readTopLevelFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) files[entry.name] = readFileSync(join(dir, entry.name), 'utf8')
  }
  return files
}
