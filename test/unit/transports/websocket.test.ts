import { describe, expect, it } from 'vitest'
import {
  MAX_CONNECTIONS,
  MAX_QUEUED_PER_CONNECTION,
  MAX_RUNNING_PER_CONNECTION,
} from '../../../src/main/transports/websocket'
import { MAX_ENVELOPE_BYTES } from '../../../src/shared/ipc/envelope'
import { describeConformance } from '../ipc/conformance-suite'
import { openSocket, startTestServer, websocketHarness } from './harness'

describeConformance('websocket', websocketHarness)

function upgradeOutcome(socket: ReturnType<typeof openSocket>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    socket.on('open', () => {
      socket.close()
      resolve('open')
    })
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
    socket.on('error', () => undefined)
  })
}

function nextMessage(socket: ReturnType<typeof openSocket>): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))))
}

describe('websocket upgrade policy', () => {
  it('accepts the right token and Origin, refuses everything else with 401/403', async () => {
    const running = await startTestServer()
    const { server } = running
    try {
      expect(await upgradeOutcome(openSocket(server))).toBe('open')
      expect(await upgradeOutcome(openSocket(server, { token: null }))).toBe(401)
      expect(await upgradeOutcome(openSocket(server, { token: 'wrong' }))).toBe(401)
      expect(await upgradeOutcome(openSocket(server, { token: `${server.token}x` }))).toBe(401)
      expect(await upgradeOutcome(openSocket(server, { origin: 'http://evil.example' }))).toBe(403)
      expect(
        await upgradeOutcome(openSocket(server, { origin: `http://127.0.0.1:${server.port + 1}` })),
      ).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { origin: null }))).toBe(403)
      expect(running.probe.calls).toEqual([])
    } finally {
      await running.dispose()
    }
  })

  it('checks the Host header of the upgrade: a DNS-rebinding page has its own host name (issue 15.17)', async () => {
    const running = await startTestServer()
    const { server } = running
    try {
      // Right token and Origin, so only the Host header differs from an accepted upgrade.
      expect(await upgradeOutcome(openSocket(server, { host: `localhost:${server.port}` }))).toBe('open')
      expect(await upgradeOutcome(openSocket(server, { host: `evil.example:${server.port}` }))).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { host: `127.0.0.1:${server.port + 1}` }))).toBe(403)
      expect(await upgradeOutcome(openSocket(server, { host: '127.0.0.1' }))).toBe(403)
      expect(running.probe.calls).toEqual([])
    } finally {
      await running.dispose()
    }
  })

  it('answers malformed, oversized and binary messages with coded errors and keeps the socket', async () => {
    const running = await startTestServer()
    const socket = openSocket(running.server)
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
    const sockets = Array.from({ length: MAX_CONNECTIONS }, () => openSocket(running.server))
    try {
      expect(
        await Promise.all(
          sockets.map((socket) => new Promise((resolve) => socket.once('open', () => resolve('open')))),
        ),
      ).toHaveLength(MAX_CONNECTIONS)
      expect(await upgradeOutcome(openSocket(running.server))).toBe(503)
    } finally {
      for (const socket of sockets) socket.close()
      await running.dispose()
    }
  })

  it('runs a few handlers per connection at once, queues the rest, and refuses past the queue', async () => {
    const running = await startTestServer()
    const socket = openSocket(running.server)
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
