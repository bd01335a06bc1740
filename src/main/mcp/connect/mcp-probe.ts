import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Start-up, hub connection, initialize and tools/list; a server slower than this looks broken to a client too. */
const MCP_PROBE_TIMEOUT_MS = 30_000

export type ProbeResult = { ok: true; tools: string[] } | { ok: false; reason: string }

/**
 * Starts an MCP server as a client would (its argv, stdio, the client's environment), sends
 * initialize and tools/list, and ends it. It runs in a folder of its own, never a project, and
 * makes no tool call, so no conversation and no approval card appear.
 */
export async function probeMcpServer(
  argv: { command: string; args: string[] },
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProbeResult> {
  const cwd = await mkdtemp(join(tmpdir(), 'shellgate-doctor-'))
  try {
    return await new Promise<ProbeResult>((resolve) => {
      const child = spawn(argv.command, argv.args, {
        cwd,
        // Never a browser window from a check.
        env: { ...env, SHELLGATE_NO_OPEN: '1' } as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      let settled = false
      const finish = (result: ProbeResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        child.stdin.end()
        child.kill('SIGTERM')
        resolve(result)
      }
      const timer = setTimeout(
        () =>
          finish({
            ok: false,
            reason: `no answer to initialize and tools/list within ${MCP_PROBE_TIMEOUT_MS / 1000} s`,
          }),
        MCP_PROBE_TIMEOUT_MS,
      )
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
      child.on('error', (error) => finish({ ok: false, reason: `it did not start: ${error.message}` }))
      child.stdin.on('error', () => undefined)
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-4096)
      })
      child.on('exit', (code, signal) => {
        const said = stderr.trim().split('\n').at(-1) ?? ''
        finish({
          ok: false,
          reason: `it exited (${signal ?? `code ${code}`}) before listing its tools${said ? `: ${said}` : ''}`,
        })
      })
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
        let newline = stdout.indexOf('\n')
        while (newline >= 0) {
          const line = stdout.slice(0, newline)
          stdout = stdout.slice(newline + 1)
          newline = stdout.indexOf('\n')
          let message: { id?: number; result?: { tools?: { name: string }[] }; error?: { message: string } }
          try {
            message = JSON.parse(line)
          } catch {
            return finish({
              ok: false,
              reason: `it wrote something that is not MCP on stdout: ${line.slice(0, 200)}`,
            })
          }
          if (message.error)
            return finish({ ok: false, reason: `it answered an error: ${message.error.message}` })
          if (message.id === 1) {
            send({ jsonrpc: '2.0', method: 'notifications/initialized' })
            send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })
          } else if (message.id === 2) {
            finish({ ok: true, tools: (message.result?.tools ?? []).map((tool) => tool.name) })
          }
        }
      })
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'shellgate-doctor', version: '1' },
        },
      })
    })
  } finally {
    await rm(cwd, { recursive: true, force: true })
  }
}
