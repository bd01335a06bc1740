import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { connect, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type WebSocket, WebSocketServer } from 'ws'
import { upgradeToWebSocket } from '../../../src/main/hub/hub-websocket'
import { waitFor } from '../core/workbench/core-harness'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A real `ws` server (what the hub runs) on a Unix socket; `onConnection` plays the hub. */
async function wsServer(onConnection: (socket: WebSocket) => void): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sg-hub-ws-'))
  const path = join(dir, 'hub.sock')
  const wss = new WebSocketServer({ noServer: true })
  const server: Server = createServer()
  server.on('upgrade', (request, socket, head) => wss.handleUpgrade(request, socket, head, onConnection))
  await new Promise<void>((resolve) => server.listen(path, resolve))
  cleanups.push(async () => {
    for (const client of wss.clients) client.terminate()
    await new Promise((resolve) => server.close(resolve))
    await rm(dir, { recursive: true, force: true })
  })
  return path
}

async function open(path: string, maxPayload = 1024 * 1024) {
  const socket = connect(path)
  await new Promise((resolve) => socket.once('connect', resolve))
  return upgradeToWebSocket(socket, '/rpc', maxPayload)
}

describe('the hub socket’s own WebSocket client (against the ws server the hub runs)', () => {
  it('exchanges text both ways, answers pings, joins fragments, and closes cleanly', async () => {
    let serverSide: WebSocket | null = null
    const received: string[] = []
    const path = await wsServer((socket) => {
      serverSide = socket
      socket.on('message', (data) => received.push(String(data)))
    })
    const outcome = await open(path)
    if (outcome.kind !== 'open') throw new Error(`not open: ${JSON.stringify(outcome)}`)
    const messages: string[] = []
    outcome.socket.onMessage((text) => messages.push(text))
    const big = 'é'.repeat(70_000) // over 65535 bytes: the 64-bit length form
    outcome.socket.send('hello')
    outcome.socket.send(big)
    await waitFor(() => received.length === 2, 'the server to get both')
    expect(received).toEqual(['hello', big])
    const server = serverSide as unknown as WebSocket
    let ponged = false
    server.on('pong', () => {
      ponged = true
    })
    server.ping()
    await waitFor(() => ponged, 'a pong')
    server.send('part one, ', { fin: false })
    server.send('part two', { fin: true })
    server.send(big)
    await waitFor(() => messages.length === 2, 'two messages')
    expect(messages).toEqual(['part one, part two', big])
    let serverClosed = false
    server.on('close', () => {
      serverClosed = true
    })
    await outcome.socket.close()
    await waitFor(() => serverClosed, 'the server to see the close')
  })

  it('refuses what is not the hub: an HTTP answer, a wrong accept key, and a message over the cap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sg-hub-ws-bad-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    const plant = (answer: string) => {
      const path = join(dir, `${Math.random()}.sock`)
      const server = createNetServer((socket) => socket.once('data', () => socket.end(answer)))
      cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
      return new Promise<string>((resolve) => server.listen(path, () => resolve(path)))
    }
    expect(await open(await plant('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'))).toEqual({
      kind: 'refused',
      status: 404,
    })
    const wrongKey =
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAA\r\n\r\n'
    expect(await open(await plant(wrongKey))).toMatchObject({ kind: 'foreign', reason: /handshake is wrong/ })
    expect(await open(await plant('SSH-2.0-OpenSSH\r\n\r\n'))).toMatchObject({ kind: 'foreign' })

    const path = await wsServer((socket) => socket.send('x'.repeat(2_000)))
    const outcome = await open(path, 1_000)
    if (outcome.kind !== 'open') throw new Error('not open')
    const messages: string[] = []
    outcome.socket.onMessage((text) => messages.push(text))
    let closed = false
    outcome.socket.onClose(() => {
      closed = true
    })
    await waitFor(() => closed, 'the connection to be dropped')
    expect(messages).toEqual([])
  })
})
