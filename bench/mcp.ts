/**
 * MCP benchmark (not a test): the round trip of the `bash` tool running `true` through
 * `shellgate mcp` (SDK client → stdio → hub socket → core), beside `shellgate exec -- true` (a
 * fresh CLI process each time) and the core's own Bash call path in-process. Target: the MCP
 * path adds at most 10 ms at the median over the core.
 * `npx tsx bench/mcp.ts` prints the JSON; `bench()` returns it for the bench runner.
 */
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { connectMcpClient, startTestHub } from '../test/unit/mcp/test-hub'

const ROUNDS = 60
const WARMUP = 5
/** Each exec round starts Node and the CLI from source: slow, so fewer rounds. */
const EXEC_ROUNDS = 8

export async function bench(): Promise<Record<string, unknown>> {
  const started = performance.now()
  const hub = await startTestHub()
  const mcp = await connectMcpClient(hub, { name: 'bench', version: '1.0.0' })
  try {
    const sessionId = (await hub.host.core.sessions.create({ title: 'bench core' })).id
    const samples: Record<'core' | 'mcp', number[]> = { core: [], mcp: [] }
    for (let round = 0; round < ROUNDS + WARMUP; round++) {
      // Alternate who goes first, so neither always pays for the other's cleanup.
      const pair: ['core' | 'mcp', () => Promise<unknown>][] = [
        ['core', () => hub.host.core.bash.run(sessionId, { command: 'true' })],
        ['mcp', () => mcp.client.callTool({ name: 'bash', arguments: { command: 'true' } })],
      ]
      for (const [name, run] of round % 2 === 0 ? pair : pair.reverse()) {
        const start = performance.now()
        await run()
        if (round >= WARMUP) samples[name].push(performance.now() - start)
      }
    }
    const exec: number[] = []
    const cli = resolve(import.meta.dirname, '../src/main/cli.ts')
    const loader = pathToFileURL(resolve(import.meta.dirname, '../node_modules/tsx/dist/loader.mjs')).href
    for (let round = 0; round < EXEC_ROUNDS; round++) {
      const start = performance.now()
      await promisify(execFile)(process.execPath, ['--import', loader, cli, 'exec', '--', 'true'], {
        env: hub.env,
        cwd: hub.workspace,
      })
      exec.push(performance.now() - start)
    }
    const core = quantile(samples.core, 0.5)
    const viaMcp = quantile(samples.mcp, 0.5)
    return {
      bashTrueMedianMs: { core: round(core), mcp: round(viaMcp), shellgateExec: round(quantile(exec, 0.5)) },
      bashTrueP25Ms: { core: round(quantile(samples.core, 0.25)), mcp: round(quantile(samples.mcp, 0.25)) },
      mcpAddedMedianMs: round(viaMcp - core),
      targetAddedMs: 10,
      rounds: { core: samples.core.length, mcp: samples.mcp.length, shellgateExec: exec.length },
      benchSeconds: round((performance.now() - started) / 1000),
    }
  } finally {
    await mcp.close()
    await hub.dispose()
  }
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
