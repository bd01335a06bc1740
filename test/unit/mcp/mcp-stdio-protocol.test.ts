import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../core/workbench/core-harness'
import { CLI_ENTRY, connectMcpClient, startTestHub, type TestHub, TSX_LOADER, textOf } from './test-hub'

let hub: TestHub | null = null
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await hub?.dispose()
  hub = null
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('shellgate mcp on the wire', { timeout: 90_000 }, () => {
  it('answers a request it does not know before initialize (server/discover), and stdout is only protocol', async () => {
    hub = await startTestHub()
    const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, CLI_ENTRY, 'mcp'], {
      cwd: hub.workspace,
      env: hub.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    cleanups.push(async () => {
      child.kill('SIGTERM')
    })
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    const send = (message: unknown) => child.stdin?.write(`${JSON.stringify(message)}\n`)
    send({ jsonrpc: '2.0', id: 'discover-1', method: 'server/discover', params: {} })
    child.stdin?.write('this line is not JSON\n')
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
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })
    const lines = await waitFor(
      () => {
        const parsed = stdout
          .split('\n')
          .filter((line) => line !== '')
          .map(
            (line) =>
              JSON.parse(line) as { id?: unknown; jsonrpc: string; result?: unknown; error?: unknown },
          )
        return parsed.some((message) => message.id === 2) ? parsed : null
      },
      'the tools/list answer',
      60_000,
    )
    // Every stdout line parsed as JSON above; each is JSON-RPC 2.0.
    expect(lines.every((message) => message.jsonrpc === '2.0')).toBe(true)
    expect(lines.find((message) => message.id === 'discover-1')).toMatchObject({ error: { code: -32601 } })
    expect(lines.find((message) => message.id === 1)).toMatchObject({
      result: { serverInfo: { name: 'shellgate' }, capabilities: { tools: {} } },
    })
    const listed = lines.find((message) => message.id === 2)?.result as
      | { tools: { name: string }[] }
      | undefined
    const tools = listed?.tools ?? []
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'bash',
      'check_command',
      'list_tasks',
      'task_input',
      'task_output',
      'task_stop',
    ])
    expect(child.exitCode).toBeNull()
  })

  it('starts a detached hub when none runs, prints its UI address to stderr, and the hub outlives it', async () => {
    const home = await realpath(await mkdtemp(join(tmpdir(), 'sg-mcp-cold-')))
    const rendererDir = join(home, 'renderer')
    await mkdir(rendererDir)
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
    let hubPid: number | null = null
    cleanups.push(async () => {
      if (hubPid !== null && alive(hubPid)) {
        process.kill(hubPid, 'SIGTERM')
        await waitFor(() => !alive(hubPid!), 'the detached hub to stop', 20_000)
      }
      await rm(home, { recursive: true, force: true })
    })
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      SHELL: '/bin/sh',
      SHELLGATE_HOME: home,
      SHELLGATE_RENDERER_DIR: rendererDir,
      SHELLGATE_NO_OPEN: '1',
    }
    // Its own folder: an agent's workspace may not be the home folder or SHELLGATE_HOME.
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'sg-mcp-cold-ws-')))
    cleanups.push(() => rm(workspace, { recursive: true, force: true }))
    const child = await connectMcpClient({ env, workspace })
    expect(child.stderr()).toMatch(/Shellgate UI: http:\/\/127\.0\.0\.1:\d+\//)
    const info = JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8')) as { pid: number }
    hubPid = info.pid
    expect(
      textOf(await child.client.callTool({ name: 'bash', arguments: { command: 'echo via the new hub' } })),
    ).toBe('via the new hub')
    await child.close()
    expect(alive(info.pid)).toBe(true)
  })
})
