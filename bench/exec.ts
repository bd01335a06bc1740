/**
 * Executor benchmark (not a test): peers side by side in one run, on this machine, right now.
 * `npx tsx bench/exec.ts` prints the JSON; `bench()` returns it for the bench runner.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { x as tinyexec } from 'tinyexec'
import { createExecutionPort, runProcess } from '../src/main/core/exec'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const FIXTURES = resolve(import.meta.dirname, '../test/fixtures/exec')
const SPAWN_ROUNDS = 150
const STREAM_BYTES = 512 * 1024 ** 2
const RSS_BYTES = 1024 ** 3
const KILL_ROUNDS = 3

export async function bench(): Promise<Record<string, unknown>> {
  const started = performance.now()
  const dir = mkdtempSync(join(tmpdir(), 'shellgate-bench-exec-'))
  try {
    const spawnToExit = await benchSpawnToExit()
    const throughput = await benchThroughput(dir)
    const rss = await benchPeakRss()
    const kill = await benchKillLatency(dir)
    return {
      machine: {
        cpus: (await import('node:os')).cpus().length,
        node: process.version,
        platform: process.platform,
      },
      spawnToExitTrueMs: spawnToExit,
      throughput512MiB: throughput,
      peakRss1GiB: rss,
      killLatencyMs: kill,
      benchSeconds: round((performance.now() - started) / 1000),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Median spawn-to-exit of `true`, the four runners interleaved round by round so load hits all alike. */
async function benchSpawnToExit() {
  const runners: Record<string, () => Promise<unknown>> = {
    runProcess: () =>
      runProcess({ file: 'true', args: [] }, { timeoutMs: 10_000, maxOutputBytes: 1024, env: PATH_ONLY }),
    rawSpawn: () =>
      new Promise((done) => {
        const child = spawn('true', [], { stdio: ['ignore', 'pipe', 'pipe'], env: PATH_ONLY })
        child.stdout.resume()
        child.stderr.resume()
        child.once('close', done)
      }),
    execa: () => execa('true', [], { env: PATH_ONLY, extendEnv: false }),
    tinyexec: async () => await tinyexec('true', [], { nodeOptions: { env: PATH_ONLY } }),
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(runners).map((name) => [name, []]))
  const entries = Object.entries(runners)
  for (let round = 0; round < SPAWN_ROUNDS + 10; round++) {
    // Rotate who goes first, so no runner always pays for the previous one's cleanup.
    const order = [...entries.slice(round % entries.length), ...entries.slice(0, round % entries.length)]
    for (const [name, run] of order) {
      const start = performance.now()
      await run()
      if (round >= 10) samples[name]!.push(performance.now() - start) // the first rounds warm up
    }
  }
  const medians = Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, round(median(values))]),
  )
  return {
    ...medians,
    runs: SPAWN_ROUNDS,
    runProcessVsRawSpawn: round(medians.runProcess! / medians.rawSpawn!),
  }
}

async function benchThroughput(dir: string) {
  const head = ['-c', String(STREAM_BYTES), '/dev/zero']
  const collectorMs = await timed(() =>
    runProcess(
      { file: 'head', args: head },
      { timeoutMs: 0, maxOutputBytes: 10 * 1024 ** 2, env: PATH_ONLY },
    ),
  )
  const rawMs = await timed(
    () =>
      new Promise((done) => {
        let bytes = 0
        const child = spawn('head', head, { stdio: ['ignore', 'pipe', 'pipe'] })
        child.stdout.on('data', (chunk: Buffer) => {
          bytes += chunk.length
        })
        child.once('close', () => done(bytes))
      }),
  )
  const devNullMs = await timed(() =>
    runProcess(
      { file: 'sh', args: ['-c', `head -c ${STREAM_BYTES} /dev/zero > /dev/null`] },
      { timeoutMs: 0, maxOutputBytes: 0, env: PATH_ONLY },
    ),
  )
  const fileModeMs = await timed(() =>
    createExecutionPort().execute({
      command: { mode: 'shell', command: `head -c ${STREAM_BYTES} /dev/zero`, shellProfile: 'posix-bash' },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 0,
      output: { mode: 'file', outputPath: join(dir, 'file-mode.log') },
    }),
  )
  const mibPerSecond = (ms: number) => round(STREAM_BYTES / 1024 ** 2 / (ms / 1000))
  return {
    collectorMiBps: mibPerSecond(collectorMs),
    rawSpawnCountingMiBps: mibPerSecond(rawMs),
    headToDevNullMiBps: mibPerSecond(devNullMs),
    bashFileModeMiBps: mibPerSecond(fileModeMs),
    collectorVsRawSpawn: round(rawMs / collectorMs),
  }
}

async function benchPeakRss() {
  globalThis.gc?.()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  await runProcess(
    { file: 'head', args: ['-c', String(RSS_BYTES), '/dev/zero'] },
    { timeoutMs: 0, maxOutputBytes: 10 * 1024 ** 2, env: PATH_ONLY },
  )
  clearInterval(sampler)
  return {
    beforeMiB: round(before / 1024 ** 2),
    peakMiB: round(peak / 1024 ** 2),
    growthMiB: round((peak - before) / 1024 ** 2),
  }
}

/** From abort() to every process of the tree gone (dead, or an orphaned zombie), polled every 1 ms. */
async function benchKillLatency(dir: string) {
  const port = createExecutionPort()
  const measure = async (script: string, count: number, bash: boolean) => {
    const values: number[] = []
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const pidFile = join(dir, `pids-${script}-${bash}-${round}`)
      const controller = new AbortController()
      const file = join(FIXTURES, script)
      const running = port.execute({
        command: bash
          ? { mode: 'shell', command: `sh '${file}' '${pidFile}'`, shellProfile: 'posix-bash' }
          : { mode: 'argv', file: 'sh', args: [file, pidFile] },
        cwd: dir,
        env: PATH_ONLY,
        timeoutMs: 0,
        signal: controller.signal,
      })
      const pids = await waitForPids(pidFile, count)
      const start = performance.now()
      controller.abort()
      while (pids.some(alive)) await new Promise((done) => setTimeout(done, 1))
      values.push(performance.now() - start)
      await running
    }
    return round(median(values))
  }
  return {
    cooperativeTree: await measure('tree.sh', 6, false),
    cooperativeTreeBashProfile: await measure('tree.sh', 6, true),
    termIgnoringPlain: await measure('term-ignoring.sh', 1, false),
    termIgnoringBashProfile: await measure('term-ignoring.sh', 1, true),
    rounds: KILL_ROUNDS,
  }
}

async function waitForPids(path: string, count: number): Promise<number[]> {
  for (;;) {
    try {
      const pids = readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number)
      if (pids.length >= count) return pids
    } catch {}
    await new Promise((done) => setTimeout(done, 5))
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[0] !== 'Z'
  } catch {
    return false
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await bench(), null, 2))
}
