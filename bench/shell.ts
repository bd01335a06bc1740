import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runProcess } from '../src/main/core/exec'
import { composeBashScript } from '../src/main/core/shell/bash-command-line'
import { createShellSnapshotService } from '../src/main/core/shell/snapshot-service'

/** Runs per variant, interleaved so a busy neighbour slows every variant alike. */
const ROUNDS = 30
/** The rc cost the issue names: a .bashrc that takes 100 ms. */
const RC_SLEEP_S = 0.1

/**
 * Per-command start cost of three ways to run `true` in bash (issue 4): a login shell whose
 * .bashrc takes 100 ms, the snapshot path the Bash tool uses, and bare `bash -c`. The rc also
 * defines aliases and functions so the snapshot has something to carry.
 */
export async function bench(): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), 'shellgate-bench-home-'))
  const dataDir = mkdtempSync(join(tmpdir(), 'shellgate-bench-data-'))
  const rc = [
    `sleep ${RC_SLEEP_S}`,
    ...Array.from({ length: 20 }, (_, i) => `alias a${i}='echo ${i}'`),
    ...Array.from({ length: 10 }, (_, i) => `f${i}() { echo "function ${i} $1"; }`),
    'shopt -s globstar',
    'export PATH="$HOME/bin:$PATH"',
  ].join('\n')
  writeFileSync(join(home, '.bashrc'), `${rc}\n`)
  writeFileSync(join(home, '.profile'), '[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"\n')
  const env = { HOME: home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' }
  const snapshots = createShellSnapshotService({ dataDir, platform: process.platform })
  try {
    const generationStart = performance.now()
    const snapshot = await snapshots.ensureShellSnapshot({ dialect: 'bash', path: '/bin/bash' }, env)
    const generationMs = performance.now() - generationStart
    if (snapshot.status !== 'ready') return { error: snapshot.reason }
    const cwdFile = join(dataDir, 'cwd-bench')
    const shell = { dialect: 'bash' as const, path: '/bin/bash' }
    const variants: Record<string, string[]> = {
      loginWithSlowRc: ['-lc', 'true'],
      snapshot: [
        '-c',
        composeBashScript({
          shell,
          snapshotPath: snapshot.path,
          startupScriptPath: null,
          command: 'true',
          cwdFile: null,
        }),
      ],
      snapshotWithCwdCapture: [
        '-c',
        composeBashScript({
          shell,
          snapshotPath: snapshot.path,
          startupScriptPath: null,
          command: 'true',
          cwdFile,
        }),
      ],
      bare: ['-c', 'true'],
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(variants)) {
        const started = performance.now()
        const result = await runProcess(
          { file: '/bin/bash', args },
          { env, cwd: home, timeoutMs: 10_000, maxOutputBytes: 65_536 },
        )
        if (result.status !== 'completed') return { error: `${name}: ${result.status} ${result.stderr}` }
        samples[name]!.push(performance.now() - started)
      }
    }
    const stats = Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, summarise(ms)]))
    const median = (name: string) => (stats[name] as { medianMs: number }).medianMs
    return {
      rounds: ROUNDS,
      rcSleepMs: RC_SLEEP_S * 1000,
      snapshotGenerationMs: round1(generationMs),
      ...stats,
      snapshotVsBare: round2(median('snapshot') / median('bare')),
      snapshotWithCwdCaptureVsBare: round2(median('snapshotWithCwdCapture') / median('bare')),
      loginVsSnapshot: round2(median('loginWithSlowRc') / median('snapshot')),
      targets: { snapshotVsBareAtMost: 1.5, loginVsSnapshotAtLeast: 3 },
    }
  } finally {
    await snapshots.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function summarise(ms: number[]): { medianMs: number; p90Ms: number; minMs: number } {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { medianMs: round1(at(0.5)), p90Ms: round1(at(0.9)), minMs: round1(sorted[0]!) }
}

const round1 = (n: number) => Math.round(n * 10) / 10
const round2 = (n: number) => Math.round(n * 100) / 100

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(await bench(), null, 2)}\n`)
}
