import { connect, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { MAX_PRE_LOGIN_CONNECTIONS } from '../../../src/main/browser-mode/pre-login-gate'
import { createWebSocketClientTransport, type WebSocketLike } from '../../../src/shared/ipc/websocket-client'
import { logIn, openSocket, startTestServer } from '../transports/harness'

const FLOOD = 200

/**
 * Three kinds of stranger: a bare idle socket, one that sends half a request's headers and stops
 * (slowloris), and one that finishes a request and then idles on keep-alive.
 */
function openStranger(port: number, kind: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.on('error', () => undefined)
    socket.on('data', () => undefined)
    socket.once('connect', () => {
      if (kind === 1) socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
      if (kind === 2)
        socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`)
      resolve({ socket, closed })
    })
    socket.once('error', reject)
  })
}

describe('connections before login', () => {
  it(`keeps at most ${MAX_PRE_LOGIN_CONNECTIONS} idle sockets, drops the oldest, and still lets the person in`, async () => {
    // A short deadline keeps the test quick; what is asserted is which sockets close, never when.
    const running = await startTestServer({ preLoginDeadlineMs: 3_000 })
    const idle: Array<{ socket: Socket; closed: Promise<void> }> = []
    const closedOrder: number[] = []
    try {
      for (let i = 0; i < FLOOD; i++) {
        const entry = await openStranger(running.server.port, i % 3)
        void entry.closed.then(() => closedOrder.push(i))
        idle.push(entry)
      }
      // The server sees each connection a moment after the client does: wait for the evictions.
      const evicted = idle.slice(0, FLOOD - MAX_PRE_LOGIN_CONNECTIONS)
      await Promise.all(evicted.map((entry) => entry.closed))
      expect(running.server.unauthenticatedConnections()).toBeLessThanOrEqual(MAX_PRE_LOGIN_CONNECTIONS)
      // Oldest first: every socket closed so far is one of the first FLOOD − MAX opened.
      expect(Math.max(...closedOrder)).toBeLessThan(FLOOD - MAX_PRE_LOGIN_CONNECTIONS)

      // During the flood the person logs in (HTTP exchange) and the RPC socket answers.
      const key = await logIn(running.server)
      const transport = createWebSocketClientTransport(
        () => openSocket(running.server, { key }) as unknown as WebSocketLike,
        (reconnect, ms) => setTimeout(reconnect, ms),
      )
      const echo = (text: string) =>
        transport.request({ kind: 'request', id: text, method: 'test.echo', params: { text } })
      expect(await echo('during the flood')).toMatchObject({ ok: true, result: { text: 'during the flood' } })

      // The rest are closed by the deadline, never by a valid handshake; the logged-in socket stays.
      await Promise.all(idle.map((entry) => entry.closed))
      expect(closedOrder).toHaveLength(FLOOD)
      expect(await echo('after the deadline')).toMatchObject({
        ok: true,
        result: { text: 'after the deadline' },
      })
      transport.close()
    } finally {
      for (const entry of idle) entry.socket.destroy()
      await running.dispose()
    }
  })
})
