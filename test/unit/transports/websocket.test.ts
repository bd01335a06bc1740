import { describe, expect, it } from 'vitest'
import {
  MAX_CONNECTIONS,
  MAX_QUEUED_PER_CONNECTION,
  MAX_RUNNING_PER_CONNECTION,
} from '../../../src/main/transports/websocket'
import { MAX_ENVELOPE_BYTES } from '../../../src/shared/ipc/envelope'
import { describeConformance } from '../ipc/conformance-suite'
import { RPC_CLOSE_CODES } from '../../../src/shared/browser-login'
import { createWebSocketClientTransport, type WebSocketLike } from '../../../src/shared/ipc/websocket-client'
import { logIn, openSocket, startTestServer, websocketHarness } from './harness'

describeConformance('websocket', websocketHarness)

/**
 * 'open' when the socket stays usable, `close <code> <reason>` when it is closed by the server
 * right after the handshake, or the HTTP status of a refused handshake.
 */
function upgradeOutcome(socket: ReturnType<typeof openSocket>): Promise<number | string> {
  return new Promise((resolve) => {
    let opened = false
    socket.on('open', () => {
      opened = true
      // An accepted socket answers a request; a refused one is closed before it can.
      socket.send(
        JSON.stringify({ kind: 'request', id: 'probe', method: 'test.echo', params: { text: 'x' } }),
      )
    })
    socket.on('message', () => {
      socket.close()
      resolve('open')
    })
    socket.on('close', (code, reason) => {
      if (opened) resolve(`close ${code} ${reason.toString()}`)
    })
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
    socket.on('error', () => undefined)
  })
}

function nextMessage(socket: ReturnType<typeof openSocket>): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))))
}

describe('websocket upgrade policy', () => {
  it('accepts a key this server issued with our Origin; refuses the rest with a code or 403', async () => {
    const running = await startTestServer()
    const other = await startTestServer()
    const { server } = running
    try {
      const key = await logIn(server)
      const foreignKey = await logIn(other.server)
      expect(await upgradeOutcome(openSocket(server, { key }))).toBe('open')
      expect(running.probe.calls).toEqual(['test.echo'])
      const missing = `close ${RPC_CLOSE_CODES.key_missing} key_missing`
      const refused = `close ${RPC_CLOSE_CODES.key_refused} key_refused`
      expect(await upgradeOutcome(openSocket(server, { key: null }))).toBe(missing)
      // A key from another hub (another process secret) is refused, and so is any edit of ours.
      expect(await upgradeOutcome(openSocket(server, { key: foreignKey }))).toBe(refused)
      const edited = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`
      expect(await upgradeOutcome(openSocket(server, { key: edited }))).toBe(refused)
      expect(await upgradeOutcome(openSocket(server, { key: 'wrong' }))).toBe(refused)
      // Origin and Host are checked before any key: a foreign page gets a bare 403, even with the key.
      expect(await upgradeOutcome(openSocket(server, { key, origin: 'http://evil.example' }))).toBe(403)
      expect(
        await upgradeOutcome(openSocket(server, { key, origin: `http://127.0.0.1:${server.port + 1}` })),
      ).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { key, origin: null }))).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { key, host: 'evil.example' }))).toBe(403)
      expect(running.probe.calls).toEqual(['test.echo'])
    } finally {
      await other.dispose()
      await running.dispose()
    }
  })

  it('never puts the key in the handshake answer', async () => {
    const running = await startTestServer()
    try {
      const key = await logIn(running.server)
      const socket = openSocket(running.server, { key })
      const answer = await new Promise<Record<string, string | string[] | undefined>>((resolve) =>
        socket.once('upgrade', (response) => resolve(response.headers)),
      )
      expect(answer['sec-websocket-protocol']).toBe('shellgate.rpc.v1')
      expect(JSON.stringify(answer)).not.toContain(key)
      expect(answer['set-cookie']).toBeUndefined()
      socket.close()
    } finally {
      await running.dispose()
    }
  })

  it('checks the Host header of the upgrade: a DNS-rebinding page has its own host name (issue 15.17)', async () => {
    const running = await startTestServer()
    const { server } = running
    try {
      // Right key and Origin, so only the Host header differs from an accepted upgrade.
      const key = await logIn(server)
      expect(await upgradeOutcome(openSocket(server, { key }))).toBe('open')
      // localhost may be another program on ::1 (test/unit/browser-mode/localhost-origin.test.ts).
      expect(await upgradeOutcome(openSocket(server, { key, host: `localhost:${server.port}` }))).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { key, host: `evil.example:${server.port}` }))).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { key, host: `127.0.0.1:${server.port + 1}` }))).toBe(
        403,
      )
      expect(await upgradeOutcome(openSocket(server, { key, host: '127.0.0.1' }))).toBe(403)
      // Only the accepted upgrade reached a handler: its one probe.
      expect(running.probe.calls).toEqual(['test.echo'])
    } finally {
      await running.dispose()
    }
  })

  it('answers malformed, oversized and binary messages with coded errors and keeps the socket', async () => {
    const running = await startTestServer()
    const socket = openSocket(running.server, { key: await logIn(running.server) })
    try {
      await new Promise((resolve) => socket.once('open', resolve))
      socket.send('{not json')
      expect(await nextMessage(socket)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      socket.send(JSON.stringify({ kind: 'request', id: 3, method: 'test.echo', params: {}, extra: 1 }))
      expect(await nextMessage(socket)).toMatchObject({ id: 3, ok: false, error: { code: 'invalid_input' } })
      socket.send(
        JSON.stringify({
          kind: 'request',
          id: 4,
          method: 'test.echo',
          params: { text: 'x'.repeat(MAX_ENVELOPE_BYTES) },
        }),
      )
      expect(await nextMessage(socket)).toMatchObject({
        id: null,
        ok: false,
        error: { code: 'invalid_input', message: expect.stringContaining('exceeds') },
      })
      socket.send(Buffer.from([1, 2, 3]), { binary: true })
      expect(await nextMessage(socket)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      socket.send(
        JSON.stringify({ kind: 'request', id: 5, method: 'test.echo', params: { text: 'still here' } }),
      )
      expect(await nextMessage(socket)).toMatchObject({ id: 5, ok: true, result: { text: 'still here' } })
      expect(running.probe.calls).toEqual(['test.echo'])
    } finally {
      socket.close()
      await running.dispose()
    }
  })
})

describe('websocket resource limits', () => {
  it(`refuses connection ${MAX_CONNECTIONS + 1} with 503`, async () => {
    const running = await startTestServer()
    // One login per socket: a login serves one page at a time (issue 19.4).
    const keys: string[] = []
    for (let i = 0; i <= MAX_CONNECTIONS; i++) keys.push(await logIn(running.server))
    const sockets = keys.slice(0, MAX_CONNECTIONS).map((key) => openSocket(running.server, { key }))
    try {
      expect(
        await Promise.all(
          sockets.map((socket) => new Promise((resolve) => socket.once('open', () => resolve('open')))),
        ),
      ).toHaveLength(MAX_CONNECTIONS)
      expect(await upgradeOutcome(openSocket(running.server, { key: keys[MAX_CONNECTIONS]! }))).toBe(503)
    } finally {
      for (const socket of sockets) socket.close()
      await running.dispose()
    }
  })

  it('runs a few handlers per connection at once, queues the rest, and refuses past the queue', async () => {
    const running = await startTestServer()
    const socket = openSocket(running.server, { key: await logIn(running.server) })
    try {
      await new Promise((resolve) => socket.once('open', resolve))
      const waiting = MAX_RUNNING_PER_CONNECTION + MAX_QUEUED_PER_CONNECTION
      for (let i = 0; i < waiting; i++) {
        socket.send(
          JSON.stringify({ kind: 'request', id: i, method: 'test.waitForAbort', params: { key: `k${i}` } }),
        )
      }
      socket.send(
        JSON.stringify({
          kind: 'request',
          id: 'extra',
          method: 'test.echo',
          params: { text: 'one too many' },
        }),
      )
      expect(await nextMessage(socket)).toMatchObject({ id: 'extra', ok: false, error: { code: 'denied' } })
      // Only the running handlers started; the queued ones wait their turn.
      expect(running.probe.calls).toHaveLength(MAX_RUNNING_PER_CONNECTION)
    } finally {
      socket.close()
      await running.dispose()
    }
  })
})

describe('websocket client and a refused key', () => {
  it('reports the refusal with its code and stops reconnecting', async () => {
    const running = await startTestServer()
    const other = await startTestServer()
    try {
      const foreignKey = await logIn(other.server)
      let opened = 0
      let reconnects = 0
      const transport = createWebSocketClientTransport(
        () => {
          opened += 1
          return openSocket(running.server, { key: foreignKey }) as unknown as WebSocketLike
        },
        () => {
          reconnects += 1
        },
      )
      const refusal = await new Promise((resolve) =>
        transport.onStatus((status, code) => {
          if (status === 'refused') resolve(code)
        }),
      )
      expect(refusal).toBe('key_refused')
      expect([opened, reconnects]).toEqual([1, 0])
      const answer = await transport.request({
        kind: 'request',
        id: 1,
        method: 'test.echo',
        params: { text: 'x' },
      })
      expect(answer).toMatchObject({ ok: false, error: { code: 'cancelled' } })
      expect(running.probe.calls).toEqual([])
    } finally {
      await other.dispose()
      await running.dispose()
    }
  })
})

describe('websocket client and a login in use (issue 19.4)', () => {
  it('retries a key that is in use a few times (a reload racing its old socket), then reports it', async () => {
    const running = await startTestServer()
    try {
      const key = await logIn(running.server)
      const holder = openSocket(running.server, { key })
      await new Promise((resolve) => holder.once('open', resolve))
      let opened = 0
      const transport = createWebSocketClientTransport(
        () => {
          opened += 1
          return openSocket(running.server, { key }) as unknown as WebSocketLike
        },
        (reconnect) => setTimeout(reconnect, 5),
      )
      const refusal = await new Promise((resolve) =>
        transport.onStatus((status, code) => {
          if (status === 'refused') resolve(code)
        }),
      )
      expect(refusal).toBe('key_in_use')
      expect(opened).toBe(11)
      holder.close()
    } finally {
      await running.dispose()
    }
  })

  it('connects once the old socket is gone, and logging out ends the login for any copy of the key', async () => {
    const running = await startTestServer()
    try {
      const key = await logIn(running.server)
      const holder = openSocket(running.server, { key })
      await new Promise((resolve) => holder.once('open', resolve))
      const statuses: string[] = []
      const transport = createWebSocketClientTransport(
        () => openSocket(running.server, { key }) as unknown as WebSocketLike,
        (reconnect) => setTimeout(reconnect, 20),
      )
      transport.onStatus((status, code) => statuses.push(code ? `${status} ${code}` : status))
      const refusedOnce = new Promise<void>((resolve) =>
        transport.onStatus((status) => status === 'closed' && resolve()),
      )
      await refusedOnce
      // The old page goes away (a reload): a retry gets in and answers requests.
      holder.close()
      const echo = { kind: 'request', id: 1, method: 'test.echo', params: { text: 'x' } } as const
      let answer = await transport.request(echo)
      while (!answer.ok) answer = await transport.request(echo)
      expect(answer).toMatchObject({ ok: true })
      const loggedOut = new Promise((resolve) =>
        transport.onStatus((status, code) => {
          if (status === 'refused') resolve(code)
        }),
      )
      transport.logOut()
      expect(await loggedOut).toBe('logged_out')
      expect(await upgradeOutcome(openSocket(running.server, { key }))).toBe(
        `close ${RPC_CLOSE_CODES.key_expired} key_expired`,
      )
      expect(statuses).not.toContain('refused key_in_use')
    } finally {
      await running.dispose()
    }
  })
})
