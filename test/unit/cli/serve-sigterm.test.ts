import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { rpcSubprotocols } from '../../../src/shared/browser-login'
import { exchangeLoginCode } from '../../fixtures/browser-mode/login-code'

/**
 * SIGTERM always ends `shellgate serve`, whatever it waits on. Here it waits on a person: a command
 * is held for approval. A FIFO planted among the session files must not block its start either.
 */
let root: string
let home: string
let workspace: string
let rendererDir: string
let child: ChildProcess | undefined

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-sigterm-'))
  home = join(root, 'home')
  workspace = join(root, 'ws')
  rendererDir = join(root, 'ui')
  await mkdir(join(home, 'sessions'), { recursive: true })
  await mkdir(workspace)
  await mkdir(rendererDir)
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Shellgate</title>')
})
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

/** Rejects instead of hanging the suite when the process does not end. */
function exitWithin(
  process: ChildProcess,
  ms: number,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running ${ms} ms after SIGTERM`)), ms)
    process.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
  })
}

describe('shellgate serve and SIGTERM', () => {
  it('ends while a command waits for approval, and a planted FIFO did not block its start', async () => {
    const fifo = join(home, 'sessions', 'planted.json')
    execFileSync('mkfifo', [fifo])
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--workspace', workspace],
      {
        env: {
          PATH: process.env.PATH,
          SHELLGATE_RENDERER_DIR: rendererDir,
          SHELLGATE_HOME: home,
          HOME: home,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    const started = exitWithin(child, 60_000)
    const url = await Promise.race([
      new Promise<URL>((resolve) => {
        child!.stdout?.on('data', () => {
          const match = /Shellgate UI: (\S+)/.exec(stdout)
          if (match?.[1]) resolve(new URL(match[1]))
        })
      }),
      started.then(() => {
        throw new Error(`serve ended before printing its URL: ${stderr}`)
      }),
    ])
    expect(stderr).toContain(`session file ${fifo} is not a regular file`)

    const { key } = await exchangeLoginCode(url)
    const socket = new WebSocket(`ws://127.0.0.1:${url.port}/rpc`, rpcSubprotocols(key ?? ''), {
      origin: url.origin,
    })
    const messages: { kind: string; id?: number; name?: string; result?: unknown }[] = []
    socket.on('message', (data) => messages.push(JSON.parse(String(data))))
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    const until = async <T>(find: () => T | undefined): Promise<T> => {
      for (;;) {
        const found = find()
        if (found !== undefined) return found
        await new Promise((resolve) => socket.once('message', resolve))
      }
    }
    socket.send(JSON.stringify({ kind: 'request', id: 1, method: 'sessions.list', params: {} }))
    const sessions = await until(() => messages.find((m) => m.kind === 'response' && m.id === 1))
    const sessionId = (sessions.result as { id: string }[])[0]?.id
    socket.send(
      JSON.stringify({
        kind: 'request',
        id: 2,
        method: 'bash.run',
        params: { sessionId, command: 'touch ran' },
      }),
    )
    await until(() => messages.find((m) => m.kind === 'event' && m.name === 'approvals.requested'))

    child.kill('SIGTERM')
    const ended = await exitWithin(child, 30_000)
    expect(ended.code === 0 || ended.signal === 'SIGTERM').toBe(true)
    expect(existsSync(join(workspace, 'ran'))).toBe(false)
    socket.terminate()
  }, 90_000)
})
