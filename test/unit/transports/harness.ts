import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { createDispatcher } from '../../../src/main/ipc/dispatcher'
import { createEventHub } from '../../../src/main/ipc/event-hub'
import {
  type BrowserServer,
  type BrowserServerOptions,
  startBrowserServer,
} from '../../../src/main/browser-mode/browser-server'
import { LOGIN_EXCHANGE_PATH, rpcSubprotocols } from '../../../src/shared/browser-login'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createWebSocketClientTransport, type WebSocketLike } from '../../../src/shared/ipc/websocket-client'
import type { ConformanceHarness } from '../ipc/conformance-suite'
import { createTestHandlers, type TestHandlerProbe, testContract } from '../ipc/test-contract'

function newProbe(): TestHandlerProbe {
  return { calls: [], aborted: new Set(), waiting: new Map() }
}

export async function loopbackHarness(): Promise<ConformanceHarness> {
  const probe = newProbe()
  const hub = createEventHub(testContract)
  const dispatcher = createDispatcher(testContract, createTestHandlers(probe))
  return {
    hub,
    probe,
    connect: async () => connectLoopback(dispatcher, hub),
    dispose: async () => undefined,
  }
}

export interface RunningTestServer {
  server: BrowserServer
  rendererDir: string
  probe: TestHandlerProbe
  hub: ReturnType<typeof createEventHub<typeof testContract>>
  dispose(): Promise<void>
}

export async function startTestServer(
  options: Pick<
    BrowserServerOptions,
    'preLoginDeadlineMs' | 'now' | 'sessionIdleMs' | 'sessionAbsoluteMs'
  > = {},
): Promise<RunningTestServer> {
  const rendererDir = await mkdtemp(join(tmpdir(), 'shellgate-renderer-'))
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
  const probe = newProbe()
  const hub = createEventHub(testContract)
  const dispatcher = createDispatcher(testContract, createTestHandlers(probe))
  const server = await startBrowserServer({ rendererDir, dispatcher, hub, port: 0, ...options })
  return {
    server,
    rendererDir,
    probe,
    hub,
    async dispose() {
      await server.close()
      await rm(rendererDir, { recursive: true, force: true })
    },
  }
}

export interface ExchangeAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** POSTs to the login exchange as a page would; headers override the page's own Host/Origin. */
export function postExchange(
  server: BrowserServer,
  body: string,
  headers: Record<string, string | null> = {},
): Promise<ExchangeAnswer> {
  const merged: Record<string, string | null> = {
    host: `127.0.0.1:${server.port}`,
    origin: server.origin,
    'content-type': 'application/json',
    ...headers,
  }
  const sent = Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== null),
  )
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path: LOGIN_EXCHANGE_PATH, method: 'POST', headers: sent },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

export function codeOf(loginUrl: string): string {
  return new URLSearchParams(new URL(loginUrl).hash.slice(1)).get('code') ?? ''
}

/** What the page does: mint an address, take its code, trade it for a session key. */
export async function logIn(server: BrowserServer): Promise<string> {
  const answer = await postExchange(server, JSON.stringify({ code: codeOf(server.mintLoginUrl()) }))
  const key = (JSON.parse(answer.body) as { key?: string }).key
  if (answer.status !== 200 || !key) throw new Error(`login failed: ${answer.status} ${answer.body}`)
  return key
}

/** A socket to /rpc; `key: null` offers no key, `origin: null` sends no Origin; `host` replaces Host. */
export function openSocket(
  server: BrowserServer,
  options: { key: string | null; origin?: string | null; host?: string },
): WebSocket {
  const origin = options.origin === undefined ? server.origin : options.origin
  const protocols = options.key === null ? [] : rpcSubprotocols(options.key)
  return new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, protocols, {
    ...(origin === null ? {} : { origin }),
    ...(options.host ? { headers: { host: options.host } } : {}),
  })
}

export async function websocketHarness(): Promise<ConformanceHarness> {
  const running = await startTestServer()
  return {
    hub: running.hub,
    probe: running.probe,
    async connect() {
      const key = await logIn(running.server)
      const transport = createWebSocketClientTransport(
        () => openSocket(running.server, { key }) as unknown as WebSocketLike,
        (reconnect, ms) => setTimeout(reconnect, ms),
      )
      await new Promise<void>((resolve) => {
        const off = transport.onStatus((status) => {
          if (status === 'open') {
            off()
            resolve()
          }
        })
      })
      return { transport, disconnect: () => transport.close() }
    },
    dispose: () => running.dispose(),
  }
}
