import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { createDispatcher } from '../../../src/main/ipc/dispatcher'
import { createEventHub } from '../../../src/main/ipc/event-hub'
import { type BrowserServer, startBrowserServer } from '../../../src/main/browser-mode/browser-server'
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

export async function startTestServer(): Promise<RunningTestServer> {
  const rendererDir = await mkdtemp(join(tmpdir(), 'shellgate-renderer-'))
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
  const probe = newProbe()
  const hub = createEventHub(testContract)
  const dispatcher = createDispatcher(testContract, createTestHandlers(probe))
  const server = await startBrowserServer({ rendererDir, dispatcher, hub, port: 0 })
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

export function openSocket(
  server: BrowserServer,
  options: { token?: string | null; origin?: string | null; host?: string } = {},
): WebSocket {
  const token = options.token === undefined ? server.token : options.token
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`
  const origin = options.origin === undefined ? `http://127.0.0.1:${server.port}` : options.origin
  return new WebSocket(`ws://127.0.0.1:${server.port}/rpc${query}`, {
    ...(origin === null ? {} : { origin }),
    ...(options.host === undefined ? {} : { headers: { host: options.host } }),
  })
}

export async function websocketHarness(): Promise<ConformanceHarness> {
  const running = await startTestServer()
  return {
    hub: running.hub,
    probe: running.probe,
    async connect() {
      const transport = createWebSocketClientTransport(
        () => openSocket(running.server) as unknown as WebSocketLike,
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
