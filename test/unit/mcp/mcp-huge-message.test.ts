import { type ChildProcess, spawn } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { boundedLines } from '../../../src/main/mcp/bounded-lines'
import { waitFor } from '../core/workbench/core-harness'
import { CLI_ENTRY, startTestHub, type TestHub, TSX_LOADER } from './test-hub'

let hub: TestHub | null = null
let child: ChildProcess | null = null
afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  child = null
  await hub?.dispose()
  hub = null
})

async function collect(stream: Readable): Promise<string[]> {
  const lines: string[] = []
  for await (const chunk of stream) lines.push(String(chunk))
  return lines
}

describe('boundedLines', () => {
  it('passes lines through whole, however they were chunked, and drops the ones over the limit', async () => {
    const dropped: number[] = []
    const input = Readable.from([
      Buffer.from('{"a":1}\n{"b"'),
      Buffer.from(':2}\n'),
      Buffer.from('x'.repeat(15)),
      Buffer.from(`${'y'.repeat(15)}\n{"c":3}\n`),
      Buffer.from('z'.repeat(40)),
      Buffer.from('\n{"d":4}'),
    ])
    const out = await collect(input.pipe(boundedLines(20, (bytes) => dropped.push(bytes))))
    expect(out.join('')).toBe('{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}')
    expect(dropped).toEqual([31, 41])
  })
})

describe('shellgate mcp and a huge message', { timeout: 90_000 }, () => {
  it('drops a message over 4 MiB with a line on stderr, runs nothing, and answers the next one', async () => {
    hub = await startTestHub()
    child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_ENTRY, 'mcp'], {
      cwd: hub.workspace,
      env: hub.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const send = (message: unknown) => child?.stdin?.write(`${JSON.stringify(message)}\n`)
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0.1' },
      },
    })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    // A valid tool call, padded past the limit: it must not run.
    const padded = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'bash',
        arguments: { command: 'touch huge-ran' },
        _meta: { padding: 'p'.repeat(5 * 1024 * 1024) },
      },
    }
    send(padded)
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} })
    const answered = await waitFor(
      () => {
        const messages = stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { id?: unknown })
        return messages.some((message) => message.id === 3) ? messages : null
      },
      'the tools/list answer',
      60_000,
    )
    expect(answered.map((message) => message.id)).toEqual([1, 3])
    expect(stderr).toMatch(/shellgate mcp: dropped a message of \d+ bytes \(over 4194304\); it was not read/)
    expect(await readdir(hub.workspace)).not.toContain('huge-ran')
    expect(hub.host.core.sessions.list().filter((session) => session.agent !== null)).toEqual([])
    expect(child.exitCode).toBeNull()
  })
})
