/**
 * Terminal benchmark (not a test), issue 23: the round trip of typing into a terminal task and
 * reading its answer, `task_input` → `task_output {since, wait_for}`, through the core and through
 * `shellgate mcp` (SDK client → stdio → hub socket → core), beside the bare peer: node-pty's own
 * write → data round trip on the same kind of program, with no Shellgate around it. The one cost
 * Shellgate adds per input is the terminal-mode read (`stty -a`, to keep password input out of the
 * logs); it is measured on its own too. Target: p50 ≤ 10 ms for the task_input → output round trip.
 * `npx tsx bench/terminal.ts` prints the JSON; `bench()` returns it for the bench runner.
 */
import { loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import { loadPty } from '../src/main/core/exec/pty-spawn'
import { readTerminalMode } from '../src/main/core/exec/terminal-mode'
import { readTaskOutput } from '../src/main/core/tasks/task-output'
import { connectMcpClient, startTestHub } from '../test/unit/mcp/test-hub'

const ROUNDS = 60
const WARMUP = 5
/** Answers each line it reads, so every input has one reply to wait for. */
const ECHO_LOOP = 'while read -r line; do echo "pong $line"; done'

export async function bench(): Promise<Record<string, unknown>> {
  const started = performance.now()
  const load = loadavg()[0]
  const hub = await startTestHub()
  const mcp = await connectMcpClient(hub, { name: 'bench', version: '1.0.0' })
  const pty = await loadPty()
  const peer = pty.spawn('/bin/bash', ['-c', ECHO_LOOP], {
    cols: 120,
    rows: 40,
    env: { PATH: '/usr/bin:/bin' },
  })
  try {
    await hub.ui.request('settings.setMode', { mode: 'yolo' })
    const core = hub.host.core
    const session = (await core.sessions.create({ title: 'bench terminal' })).id
    const coreTask = (await core.bash.run(session, { command: ECHO_LOOP, tty: true, timeout: 1 })).taskId!
    const mcpStart = await mcp.client.callTool({
      name: 'bash',
      arguments: { command: ECHO_LOOP, tty: true, timeout: 1 },
    })
    const mcpTask = (mcpStart.structuredContent as { taskId: string }).taskId

    const samples: Record<'core' | 'mcp' | 'nodePty' | 'modeRead', number[]> = {
      core: [],
      mcp: [],
      nodePty: [],
      modeRead: [],
    }
    let peerSeen = ''
    peer.onData((data) => {
      peerSeen += data
    })
    const runs: Array<['core' | 'mcp' | 'nodePty' | 'modeRead', (n: number) => Promise<unknown>]> = [
      [
        'core',
        async (n) => {
          const typed = await core.terminals.input(coreTask, { text: `c${n}\n` }, 'agent', session)
          const read = await readTaskOutput(
            core.tasks,
            { task_id: coreTask, since: typed.outputCursor, wait_for: `^pong c${n}$`, timeout: 5_000 },
            { sessionId: session },
          )
          if (!read.task.matched) throw new Error(`core round ${n}: no answer`)
        },
      ],
      [
        'mcp',
        async (n) => {
          const typed = await mcp.client.callTool({
            name: 'task_input',
            arguments: { task_id: mcpTask, text: `m${n}\n` },
          })
          const since = (typed.structuredContent as { output_cursor: number }).output_cursor
          const read = await mcp.client.callTool({
            name: 'task_output',
            arguments: { task_id: mcpTask, since, wait_for: `^pong m${n}$`, timeout: 5_000 },
          })
          if (!JSON.stringify(read.structuredContent).includes(`pong m${n}`))
            throw new Error(`mcp round ${n}: no answer`)
        },
      ],
      [
        'nodePty',
        (n) =>
          new Promise<void>((resolve) => {
            const wanted = `pong p${n}\r\n`
            const check = peer.onData(() => {
              if (peerSeen.includes(wanted)) {
                check.dispose()
                resolve()
              }
            })
            peer.write(`p${n}\r`)
          }),
      ],
      [
        'modeRead',
        () => readTerminalMode((peer as unknown as { ptsName: string }).ptsName, process.platform),
      ],
    ]
    for (let n = 0; n < ROUNDS + WARMUP; n++) {
      // Rotate who goes first, so none always pays for another's cleanup.
      const order = [...runs.slice(n % runs.length), ...runs.slice(0, n % runs.length)]
      for (const [name, run] of order) {
        const start = performance.now()
        await run(n)
        if (n >= WARMUP) samples[name].push(performance.now() - start)
      }
    }
    const p50 = (name: keyof typeof samples) => round(quantile(samples[name], 0.5))
    return {
      inputToOutputP50Ms: { core: p50('core'), mcp: p50('mcp'), nodePtyAlone: p50('nodePty') },
      inputToOutputP90Ms: {
        core: round(quantile(samples.core, 0.9)),
        mcp: round(quantile(samples.mcp, 0.9)),
        nodePtyAlone: round(quantile(samples.nodePty, 0.9)),
      },
      terminalModeReadP50Ms: p50('modeRead'),
      targetP50Ms: 10,
      loadAverage1m: { before: round(load), after: round(loadavg()[0]) },
      rounds: samples.core.length,
      benchSeconds: round((performance.now() - started) / 1000),
    }
  } finally {
    peer.kill()
    await mcp.close()
    await hub.host.core.tasks.stopAll('user')
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
