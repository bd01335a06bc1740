import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { rpcSubprotocols } from '../../../src/shared/browser-login'
import { exchangeLoginCode } from '../../fixtures/browser-mode/login-code'

let rendererDir: string
let home: string

beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'shellgate-serve-ui-'))
  home = await mkdtemp(join(tmpdir(), 'shellgate-serve-home-'))
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Shellgate</title>')
})
afterAll(async () => {
  await rm(rendererDir, { recursive: true, force: true })
  await rm(home, { recursive: true, force: true })
})

function startServe(
  args: string[],
  path = process.env.PATH,
): {
  child: ChildProcess
  output: Promise<{ stdout: string; stderr: string; code: number | null }>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve', ...args], {
    env: { PATH: path, SHELLGATE_RENDERER_DIR: rendererDir, SHELLGATE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const output = new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) =>
    child.once('exit', (code) => resolve({ stdout, stderr, code })),
  )
  return { child, output }
}

async function waitForUrl(child: ChildProcess): Promise<URL> {
  return new Promise((resolve, reject) => {
    let seen = ''
    child.stdout?.on('data', (chunk) => {
      seen += chunk
      const match = /Shellgate UI: (\S+)/.exec(seen)
      if (match?.[1]) resolve(new URL(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing a URL`)))
  })
}

describe('shellgate serve (real process)', () => {
  it('prints a 127.0.0.1 login address with a one-time code, serves, and exits 0 on SIGINT', async () => {
    const { child, output } = startServe([])
    const url = await waitForUrl(child)
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.search).toBe('')
    expect(url.hash).toMatch(/^#code=[A-Za-z0-9_-]{43}$/)
    const page = await fetch(url, { redirect: 'manual' })
    expect(page.status).toBe(200)
    expect(page.headers.get('set-cookie')).toBeNull()
    expect((await exchangeLoginCode(url)).status).toBe(200)
    expect((await exchangeLoginCode(url)).error?.code).toBe('code_spent')
    child.kill('SIGINT')
    const { code, stderr } = await output
    expect(code).toBe(0)
    expect(stderr).toContain('stopped')
    await expect(fetch(url)).rejects.toThrow()
  })

  it('--open hands the system opener its own fresh code, not the printed one', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'shellgate-opener-'))
    const opened = join(bin, 'opened.txt')
    // A real xdg-open stand-in on PATH that records the one argument it was given.
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`)
    await chmod(join(bin, 'xdg-open'), 0o755)
    const { child, output } = startServe(['--open'], `${bin}:${process.env.PATH}`)
    try {
      const printed = await waitForUrl(child)
      const openedUrl = new URL(await until(() => readFileSync(opened, 'utf8') || undefined))
      expect(openedUrl.origin).toBe(printed.origin)
      expect(openedUrl.hash).toMatch(/^#code=[A-Za-z0-9_-]{43}$/)
      expect(openedUrl.hash).not.toBe(printed.hash)
      // Each works exactly once, independently of the other.
      expect((await exchangeLoginCode(openedUrl)).status).toBe(200)
      expect((await exchangeLoginCode(printed)).status).toBe(200)
      expect((await exchangeLoginCode(openedUrl)).error?.code).toBe('code_spent')
      child.kill('SIGINT')
      expect((await output).code).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await rm(bin, { recursive: true, force: true })
    }
  })

  it('says which port is busy and exits 2', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const { output } = startServe(['--port', String(port)])
      const { code, stderr } = await output
      expect(code).toBe(2)
      expect(stderr.trim()).toBe(
        `shellgate serve: port ${port} on 127.0.0.1 is busy; choose another with --port`,
      )
    } finally {
      blocker.close()
    }
  })
})

describe('shellgate serve stopping with work in flight', () => {
  it('Ctrl+C cancels a running foreground call and leaves none of its processes', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'shellgate-serve-ws-'))
    const yoloHome = await mkdtemp(join(tmpdir(), 'shellgate-serve-yolo-'))
    // Sandbox off: the test checks `$!` as a host pid, which inside the sandbox's PID namespace it is
    // not (the sandboxed variant lives in test/unit/core/sandbox/executor-inside.test.ts).
    await writeFile(
      join(yoloHome, 'settings.json'),
      JSON.stringify({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } }),
    )
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--workspace', workspace],
      {
        env: {
          PATH: process.env.PATH,
          SHELLGATE_RENDERER_DIR: rendererDir,
          SHELLGATE_HOME: yoloHome,
          HOME: yoloHome,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    try {
      const url = await waitForUrl(child)
      const { key } = await exchangeLoginCode(url)
      const socket = new WebSocket(`ws://127.0.0.1:${url.port}/rpc`, rpcSubprotocols(key ?? ''), {
        origin: url.origin,
      })
      await new Promise((resolve) => socket.once('open', resolve))
      const request = (id: number, method: string, params: unknown) =>
        socket.send(JSON.stringify({ kind: 'request', id, method, params }))
      const answers = new Map<number, unknown>()
      socket.on('message', (data) => {
        const message = JSON.parse(String(data))
        if (message.kind === 'response') answers.set(message.id, message)
      })
      request(1, 'sessions.list', {})
      const sessions = await until(() => answers.get(1) as { result: { id: string }[] } | undefined)
      request(2, 'bash.run', {
        sessionId: sessions.result[0]?.id,
        command: 'sleep 300 & echo $! > child.pid; wait',
        timeout: 60_000,
      })
      const pid = Number(
        await until(() => readFileSync(join(workspace, 'child.pid'), 'utf8').trim() || undefined),
      )
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGINT')
      expect(await exited).toBe(0)
      await until(() => isGoneOrZombie(pid) || undefined)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await rm(workspace, { recursive: true, force: true })
      await rm(yoloHome, { recursive: true, force: true })
    }
  })
})

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    try {
      const value = read()
      if (value !== undefined) return value
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('timed out')
}

function isGoneOrZombie(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
}
