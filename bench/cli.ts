/**
 * CLI start-up benchmark (not a test), issue 20.6: the built CLI (`bin/shellgate.js`, as an agent's
 * hook runs it) beside `node -e 0`, Node's own floor, in one interleaved run:
 *   - `shellgate --version`                                   target ≤ 60 ms
 *   - `shellgate hook claude-code` answering an allowed `ls`, end to end (process start, hook JSON
 *     in, the hub's decision and ticket, decision JSON out)     target ≤ 70 ms p50, ≤ 150 ms p99
 *   - `shellgate exec -- true` with a hub running              target ≤ 100 ms
 *   - the ticket the hook wrote, run as the client's shell tool runs it (`bash -c`), for reference
 * The machine is shared: figures are also given as ratios to `node -e 0` in the same run, with the
 * load average before and after, and as CPU time (user + system of the process, from bash's `time`),
 * which other processes' load moves far less than the wall clock. The CPU time leaves out the hub's
 * side (another process) and the waiting. Needs `npm run build` (the bench measures the built CLI).
 * `npx tsx bench/cli.ts` prints the JSON; `bench()` returns it for the bench runner.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { startTestHub } from '../test/unit/mcp/test-hub'

const ROUNDS = 40
/**
 * Issue 20.6's targets, set on a machine where `node -e 0` took 40 ms. Node's own start-up moves
 * with the machine (40 to 83 ms from session to session here, on the same code), so each target is
 * also given as a multiple of that floor and checked against this run's floor: 60 ms is 1.5× Node,
 * 70 / 150 ms are 1.75× / 3.75×, 100 ms is 2.5×. Both readings are printed.
 */
const TARGETS_MS = { version: 60, hookAllowedLsP50: 70, hookAllowedLsP99: 150, execTrue: 100 }
const TARGETS_NODE_FLOOR_MS = 40
const WARMUP = 3
/** CPU time is steadier than the wall clock: fewer rounds, after the timed ones. */
const CPU_ROUNDS = 15
const BIN = resolve(import.meta.dirname, '../bin/shellgate.js')
const CLI_BUNDLE = resolve(import.meta.dirname, '../out/main/cli.js')
const run = promisify(execFile)

type Name = 'nodeFloor' | 'version' | 'hookAllowedLs' | 'execTrue' | 'ticketLs'

export async function bench(): Promise<Record<string, unknown>> {
  if (!existsSync(CLI_BUNDLE)) return { error: 'out/main/cli.js is missing: run `npm run build` first' }
  const started = performance.now()
  const loadBefore = loadavg()
  const hub = await startTestHub()
  try {
    const env = { ...hub.env, SHELLGATE_NO_OPEN: '1' }
    const hookInput = JSON.stringify({
      session_id: 'bench',
      cwd: hub.workspace,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls', description: 'list' },
    })
    let lastTicket = ''
    const steps: Record<Name, () => Promise<void>> = {
      nodeFloor: async () => void (await run(process.execPath, ['-e', '0'], { env })),
      version: async () => void (await run(process.execPath, [BIN, '--version'], { env })),
      hookAllowedLs: async () => {
        const answer = JSON.parse(
          await withStdin([BIN, 'hook', 'claude-code'], hookInput, env, hub.workspace),
        )
        lastTicket = answer.hookSpecificOutput?.updatedInput?.command ?? ''
        if (answer.hookSpecificOutput?.permissionDecision !== 'allow')
          throw new Error('hook did not allow ls')
      },
      execTrue: async () =>
        void (await run(process.execPath, [BIN, 'exec', '--', 'true'], { env, cwd: hub.workspace })),
      ticketLs: async () => void (await run('bash', ['-c', lastTicket], { env, cwd: hub.workspace })),
    }
    const order: Name[] = ['nodeFloor', 'version', 'hookAllowedLs', 'ticketLs', 'execTrue']
    const samples = Object.fromEntries(order.map((name) => [name, [] as number[]])) as Record<Name, number[]>
    for (let round = 0; round < ROUNDS + WARMUP; round++) {
      // Rotate who goes first, so none always runs right after the heaviest one. The ticket needs
      // the hook before it, so the two stay a pair.
      const shift = round % 4
      const heads: Name[][] = [['nodeFloor'], ['version'], ['hookAllowedLs', 'ticketLs'], ['execTrue']]
      for (const group of [...heads.slice(shift), ...heads.slice(0, shift)]) {
        for (const name of group) {
          const start = performance.now()
          await steps[name]()
          if (round >= WARMUP) samples[name].push(performance.now() - start)
        }
      }
    }
    const cpu = await cpuTimes(env, hub.workspace, hookInput)
    const floor = quantile(samples.nodeFloor, 0.5)
    const figure = (name: Name) => ({
      p50: round(quantile(samples[name], 0.5)),
      p99: round(quantile(samples[name], 0.99)),
      p50OverNodeFloor: round(quantile(samples[name], 0.5) / floor),
    })
    return {
      ms: Object.fromEntries(order.map((name) => [name, figure(name)])),
      cpuMs: cpu,
      targetsMs: TARGETS_MS,
      ...targetsAgainst(floor, {
        version: quantile(samples.version, 0.5),
        hookAllowedLsP50: quantile(samples.hookAllowedLs, 0.5),
        hookAllowedLsP99: quantile(samples.hookAllowedLs, 0.99),
        execTrue: quantile(samples.execTrue, 0.5),
      }),
      loadAverage: { before: loadBefore.map(round), after: loadavg().map(round) },
      rounds: ROUNDS,
      benchSeconds: round((performance.now() - started) / 1000),
    }
  } finally {
    await hub.dispose()
  }
}

/** Each target scaled to this run's Node floor, and whether the figure is within it (absolute and scaled). */
function targetsAgainst(
  floor: number,
  figures: Record<keyof typeof TARGETS_MS, number>,
): Record<string, unknown> {
  const names = Object.keys(TARGETS_MS) as (keyof typeof TARGETS_MS)[]
  const scale = floor / TARGETS_NODE_FLOOR_MS
  return {
    targetsScaledToNodeFloorMs: Object.fromEntries(
      names.map((name) => [name, round(TARGETS_MS[name] * scale)]),
    ),
    withinTargetMs: Object.fromEntries(names.map((name) => [name, figures[name] <= TARGETS_MS[name]])),
    withinScaledTarget: Object.fromEntries(
      names.map((name) => [name, figures[name] <= TARGETS_MS[name] * scale]),
    ),
  }
}

type CpuName = 'nodeFloor' | 'version' | 'hookAllowedLs' | 'execTrue'

/** p50 of user + system CPU of each process (bash's `time`, 1 ms steps), and its ratio to node's. */
async function cpuTimes(
  env: Record<string, string>,
  cwd: string,
  hookInput: string,
): Promise<Record<CpuName, { p50: number; p50OverNodeFloor: number }>> {
  const input = join(cwd, '.bench-hook-input.json')
  await writeFile(input, hookInput)
  const argv: Record<CpuName, string[]> = {
    nodeFloor: ['-e', '0'],
    version: [BIN, '--version'],
    hookAllowedLs: [BIN, 'hook', 'claude-code'],
    execTrue: [BIN, 'exec', '--', 'true'],
  }
  const names = Object.keys(argv) as CpuName[]
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<CpuName, number[]>
  const script = 'TIMEFORMAT="%3U %3S"; time "$@" < "$SG_BENCH_INPUT" > /dev/null 2>&1'
  for (let round = 0; round < CPU_ROUNDS; round++) {
    for (const name of names) {
      const { stderr } = await run('bash', ['-c', script, 'cpu', process.execPath, ...argv[name]], {
        env: { ...env, SG_BENCH_INPUT: name === 'hookAllowedLs' ? input : '/dev/null' },
        cwd,
      })
      const [user, system] = stderr.trim().split(/\s+/).map(Number)
      samples[name].push(((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000)
    }
  }
  const floor = quantile(samples.nodeFloor, 0.5)
  return Object.fromEntries(
    names.map((name) => {
      const p50 = quantile(samples[name], 0.5)
      return [name, { p50: round(p50), p50OverNodeFloor: round(p50 / floor) }]
    }),
  ) as Record<CpuName, { p50: number; p50OverNodeFloor: number }>
}

function withStdin(argv: string[], input: string, env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, argv, { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', () => resolvePromise(stdout))
    child.stdin.end(input)
  })
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await bench(), null, 2)}\n`)
}
