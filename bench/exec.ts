/**
 * Executor benchmark (not a test): peers side by side in one run, on this machine, right now.
 * `npx tsx bench/exec.ts` prints the JSON; `bench()` returns it for the bench runner.
 *
 * "Detached" peers use the port's spawn options: POSIX children must lead their own process group,
 * and Node gets that only through setsid(), which on Linux also gives the child its own scheduler
 * autogroup. On a loaded machine that alone can halve pipe throughput, so the collector is compared
 * with both a plain and a detached raw spawn to separate its own cost from setsid's.
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
const SPAWN_ROUNDS = 300
const STREAM_BYTES = 512 * 1024 ** 2
const RSS_BYTES = 1024 ** 3
const KILL_ROUNDS = 3
const THROUGHPUT_ROUNDS = 7
const COLLECTOR_TARGET_RATIO = 0.8

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
    rawSpawn: () => spawnTrue(false),
    rawSpawnDetached: () => spawnTrue(true),
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
  // Medians move with whatever else the shared machine runs; the 25th percentile is steadier.
  const at = (q: number) =>
    Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, round(quantile(values, q))]))
  const medians = at(0.5)
  const p25 = at(0.25)
  return {
    median: medians,
    p25,
    runs: SPAWN_ROUNDS,
    runProcessVsRawSpawnMedian: round(medians.runProcess! / medians.rawSpawn!),
    runProcessVsRawSpawnP25: round(p25.runProcess! / p25.rawSpawn!),
    runProcessVsRawSpawnDetachedMedian: round(medians.runProcess! / medians.rawSpawnDetached!),
    runProcessVsRawSpawnDetachedP25: round(p25.runProcess! / p25.rawSpawnDetached!),
  }
}

async function benchThroughput(dir: string) {
  const head = ['-c', String(STREAM_BYTES), '/dev/zero']
  const runs: Record<string, () => Promise<unknown>> = {
    collector: () =>
      runProcess(
        { file: 'head', args: head },
        { timeoutMs: 0, maxOutputBytes: 10 * 1024 ** 2, env: PATH_ONLY },
      ),
    rawSpawnCounting: () => countBytes(head, false),
    // Same spawn options as the port: its own session (setsid), hence its own scheduler autogroup.
    rawSpawnCountingDetached: () => countBytes(head, true),
    headToDevNull: () =>
      runProcess(
        { file: 'sh', args: ['-c', `head -c ${STREAM_BYTES} /dev/zero > /dev/null`] },
        { timeoutMs: 0, maxOutputBytes: 0, env: PATH_ONLY },
      ),
    bashFileMode: () =>
      createExecutionPort().execute({
        command: { mode: 'shell', command: `head -c ${STREAM_BYTES} /dev/zero`, shellProfile: 'posix-bash' },
        cwd: dir,
        env: PATH_ONLY,
        timeoutMs: 0,
        output: { mode: 'file', outputPath: join(dir, 'file-mode.log') },
      }),
  }
  // One pass is too noisy on a shared machine: interleave the rounds and keep each median.
  const ms: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((name) => [name, []]))
  // Every other pass runs in reverse, so no variant always follows the same neighbour.
  for (let pass = 0; pass < THROUGHPUT_ROUNDS; pass++) {
    const order = pass % 2 === 0 ? Object.entries(runs) : Object.entries(runs).reverse()
    for (const [name, run] of order) ms[name]!.push(await timed(run))
  }
  const mibPerSecond = (name: string) => round(STREAM_BYTES / 1024 ** 2 / (median(ms[name]!) / 1000))
  return {
    collectorMiBps: mibPerSecond('collector'),
    rawSpawnCountingMiBps: mibPerSecond('rawSpawnCounting'),
    headToDevNullMiBps: mibPerSecond('headToDevNull'),
    bashFileModeMiBps: mibPerSecond('bashFileMode'),
    rawSpawnCountingDetachedMiBps: mibPerSecond('rawSpawnCountingDetached'),
    collectorVsRawSpawn: round(median(ms.rawSpawnCounting!) / median(ms.collector!)),
    collectorVsRawSpawnDetached: round(median(ms.rawSpawnCountingDetached!) / median(ms.collector!)),
    // Issue 15.9: at least 0.8x a plain raw spawn, in this run. The detached peer shows how much of
    // any gap is the collector's own session (on Linux its own scheduler autogroup), not its code.
    collectorTarget: {
      atLeast: COLLECTOR_TARGET_RATIO,
      met: median(ms.rawSpawnCounting!) / median(ms.collector!) >= COLLECTOR_TARGET_RATIO,
    },
    rounds: THROUGHPUT_ROUNDS,
  }
}

function spawnTrue(detached: boolean): Promise<unknown> {
  return new Promise((done) => {
    const child = spawn('true', [], { stdio: ['ignore', 'pipe', 'pipe'], env: PATH_ONLY, detached })
    child.stdout.resume()
    child.stderr.resume()
    child.once('close', done)
  })
}

function countBytes(args: string[], detached: boolean): Promise<number> {
  return new Promise((done) => {
    let bytes = 0
    const child = spawn('head', args, { stdio: ['ignore', 'pipe', 'pipe'], detached })
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length
    })
    child.once('close', () => done(bytes))
  })
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

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length * q)] ?? Number.NaN
}

function median(values: number[]): number {
  return quantile(values, 0.5)
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

/** `npx tsx bench/exec.ts spawnToExit`: one part alone, to iterate on it without the 512 MiB runs. */
const PARTS: Record<string, () => Promise<unknown>> = { spawnToExit: benchSpawnToExit }

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const part = process.argv[2]
  if (part !== undefined && !PARTS[part]) {
    throw new Error(`unknown part "${part}"; known: ${Object.keys(PARTS).join(', ')}`)
  }
  console.log(JSON.stringify(part ? await PARTS[part]!() : await bench(), null, 2))
}
