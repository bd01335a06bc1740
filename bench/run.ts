import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// `npm run bench`: every room's benchmark in one run, one JSON document on stdout.
// Each bench/<room>.ts exports bench(); peers are measured side by side inside each.
const ROOMS = ['exec', 'shell', 'classify', 'sandbox', 'mcp', 'terminal', 'cli'] as const

const only = process.argv.slice(2)
const results: Record<string, unknown> = {
  machine: {
    node: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    date: new Date().toISOString(),
  },
}
for (const room of ROOMS) {
  if (only.length > 0 && !only.includes(room)) continue
  const file = fileURLToPath(new URL(`./${room}.ts`, import.meta.url))
  if (!existsSync(file)) {
    results[room] = { error: `bench/${room}.ts is missing` }
    continue
  }
  const module = (await import(file)) as { bench: () => Promise<Record<string, unknown>> }
  process.stderr.write(`bench: ${room}…\n`)
  results[room] = await module.bench()
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
