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
): RealRun {
  const cwd = mkdtempSync(join(tmpdir(), 'shellgate-bypass-'))
  try {
    writeFileSync(join(cwd, 'f'), 'a/b\nline two\n')
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, LC_ALL: 'C' }
    if (setup) {
      const prepared = spawnSync('bash', ['-c', setup], { cwd, encoding: 'utf8', timeout: 10_000, env })
      if (prepared.status !== 0) throw new Error(`setup failed: ${prepared.stderr}`)
    }
    writeFileSync(join(cwd, 'victim'), 'victim\n')
    for (const name of plant) {
      mkdirSync(dirname(join(cwd, name)), { recursive: true })
      writeFileSync(join(cwd, name), 'planted\n')
    }
    const run = spawnSync('bash', ['-c', command], {
      cwd,
      encoding: 'utf8',
      timeout: 10_000,
      input: '',
      env,
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

function readTopLevelFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) files[entry.name] = readFileSync(join(dir, entry.name), 'utf8')
  }
  return files
}
