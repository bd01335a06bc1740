import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'

/**
 * `codex app-server` speaks JSON-RPC, one message a line, on stdio: the protocol Codex's own IDE
 * extension uses. It is the one non-interactive way to have the real Codex start its configured MCP
 * servers, list their tools and hooks, and call a tool without a model.
 */
export interface CodexAppServer {
  request(method: string, params: unknown): Promise<unknown>
  stderr(): string
  close(): Promise<void>
}

export async function startCodexAppServer(
  command: [string, string[]],
  options: { cwd: string; env: Record<string, string> },
): Promise<CodexAppServer> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(command[0], command[1], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<void>((done) => child.once('close', () => done()))
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextId = 1
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: { id?: number; result?: unknown; error?: { message?: string } }
    try {
      message = JSON.parse(line)
    } catch {
      return
    }
    const pending = message.id === undefined ? undefined : waiting.get(message.id)
    if (!pending || message.id === undefined) return // a notification
    waiting.delete(message.id)
    if (message.error) pending.reject(new Error(`codex app-server: ${message.error.message ?? line}`))
    else pending.resolve(message.result)
  })
  void exited.then(() => {
    for (const pending of waiting.values()) pending.reject(new Error(`codex app-server exited: ${stderr}`))
    waiting.clear()
  })
  const server: CodexAppServer = {
    request(method, params) {
      const id = nextId++
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        child.stdin.write(`${JSON.stringify({ id, method, params })}\n`)
      })
    },
    stderr: () => stderr,
    async close() {
      child.stdin.end()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
  await server.request('initialize', { clientInfo: { name: 'shellgate-test', version: '1.0.0' } })
  child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`)
  return server
}
