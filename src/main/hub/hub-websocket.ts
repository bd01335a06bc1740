import type { Socket } from 'node:net'
import { type RandomBytes, randomSource } from './kernel-random'
import { webSocketAccept } from './websocket-accept'

/**
 * The client half of RFC 6455 the hub socket needs, and nothing more: text messages, ping/pong,
 * close. The `ws` package loads Node's http, https and tls to offer everything else, which cost
 * about as much as Node's own start on every hook call (issue 20); the hub's server side stays `ws`.
 * No extensions (the hub offers none), no subprotocol; frames from the server must be unmasked.
 */
export interface HubWebSocket {
  send(text: string): void
  /** A clean close: our close frame, then the server's (or its end), within CLOSE_WAIT_MS. */
  close(): Promise<void>
  /**
   * Our close frame, and nothing more to wait for: the process may exit before the server's answer
   * (the kernel ends the connection then). For a short-lived client whose last answer is in.
   */
  leave(): void
  onMessage(listener: (text: string) => void): void
  onClose(listener: () => void): void
}

export type HandshakeOutcome =
  | { kind: 'open'; socket: HubWebSocket }
  | { kind: 'refused'; status: number }
  | { kind: 'foreign'; reason: string }

/** A handshake answer is a few hundred bytes; anything this long is not a hub. */
const MAX_HANDSHAKE_BYTES = 16 * 1024
const CLOSE_WAIT_MS = 1_000
const OP = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const

/** Upgrades a connected socket to a WebSocket on `path`; resolves once the server answered. */
export function upgradeToWebSocket(
  socket: Socket,
  path: string,
  maxPayloadBytes: number,
): Promise<HandshakeOutcome> {
  const randomBytes = randomSource()
  const key = randomBytes(16).toString('base64')
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: shellgate-hub\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  )
  return new Promise((resolve) => {
    let head = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) {
        if (head.length > MAX_HANDSHAKE_BYTES)
          finish({ kind: 'foreign', reason: 'its handshake answer is too long' })
        return
      }
      const lines = head.subarray(0, end).toString('latin1').split('\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? Number.NaN)
      if (Number.isNaN(status)) return finish({ kind: 'foreign', reason: 'it does not speak HTTP' })
      if (status !== 101) return finish({ kind: 'refused', status })
      const headers = new Map(
        lines.slice(1).map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const
        }),
      )
      if (
        headers.get('sec-websocket-accept') !== webSocketAccept(key) ||
        headers.get('upgrade')?.toLowerCase() !== 'websocket'
      )
        return finish({ kind: 'foreign', reason: 'its WebSocket handshake is wrong' })
      if (headers.has('sec-websocket-extensions'))
        return finish({ kind: 'foreign', reason: 'it chose a WebSocket extension nobody offered' })
      socket.off('data', onData)
      socket.off('close', onClosed)
      resolve({
        kind: 'open',
        socket: frames(socket, head.subarray(end + 4), maxPayloadBytes, randomBytes),
      })
    }
    const onClosed = () =>
      finish({ kind: 'foreign', reason: 'it closed the connection during the handshake' })
    const finish = (outcome: Exclude<HandshakeOutcome, { kind: 'open' }>) => {
      socket.off('data', onData)
      socket.off('close', onClosed)
      socket.destroy()
      resolve(outcome)
    }
    socket.on('data', onData)
    socket.once('close', onClosed)
  })
}

function frames(
  socket: Socket,
  leftover: Buffer,
  maxPayloadBytes: number,
  randomBytes: RandomBytes,
): HubWebSocket {
  const messageListeners: ((text: string) => void)[] = []
  // Messages that came before anyone listened (with the handshake answer) wait for the first listener.
  const early: string[] = []
  const closeListeners: (() => void)[] = []
  let buffer = leftover
  let parts: Buffer[] = []
  let partsBytes = 0
  let closing = false
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  void closed.then(() => {
    for (const listener of closeListeners) listener()
  })

  const write = (opcode: number, payload: Buffer) => {
    if (socket.destroyed) return
    // Client frames are masked (RFC 6455 §5.3); the key is fresh for every frame.
    const mask = randomBytes(4)
    const length = payload.length
    const header =
      length < 126
        ? Buffer.from([0x80 | opcode, 0x80 | length])
        : length < 65_536
          ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
          : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigLength(length)])
    const masked = Buffer.allocUnsafe(length)
    for (let i = 0; i < length; i++) masked[i] = (payload[i] as number) ^ (mask[i & 3] as number)
    socket.write(Buffer.concat([header, mask, masked]))
  }
  const fail = () => {
    socket.destroy()
  }
  const parse = () => {
    for (;;) {
      if (buffer.length < 2) return
      const first = buffer[0] as number
      const second = buffer[1] as number
      const fin = (first & 0x80) !== 0
      const opcode = first & 0x0f
      // A server never masks, and without extensions the RSV bits stay clear.
      if ((second & 0x80) !== 0 || (first & 0x70) !== 0) return fail()
      let length = second & 0x7f
      let offset = 2
      if (length === 126) {
        if (buffer.length < 4) return
        length = buffer.readUInt16BE(2)
        offset = 4
      } else if (length === 127) {
        if (buffer.length < 10) return
        const big = buffer.readBigUInt64BE(2)
        if (big > BigInt(maxPayloadBytes)) return fail()
        length = Number(big)
        offset = 10
      }
      if (partsBytes + length > maxPayloadBytes) return fail()
      if (buffer.length < offset + length) return
      const payload = buffer.subarray(offset, offset + length)
      buffer = buffer.subarray(offset + length)
      if (opcode === OP.ping) write(OP.pong, payload)
      else if (opcode === OP.pong) continue
      else if (opcode === OP.close) {
        if (!closing) write(OP.close, payload.subarray(0, 2))
        closing = true
        socket.end()
        return
      } else if (opcode === OP.text || opcode === OP.binary || opcode === OP.continuation) {
        parts.push(Buffer.from(payload))
        partsBytes += length
        if (fin) {
          const text = Buffer.concat(parts).toString('utf8')
          parts = []
          partsBytes = 0
          if (messageListeners.length === 0) early.push(text)
          for (const listener of messageListeners) listener(text)
        }
      } else return fail()
    }
  }
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    parse()
  })
  socket.on('error', () => socket.destroy())
  parse()

  return {
    send(text) {
      if (!closing) write(OP.text, Buffer.from(text, 'utf8'))
    },
    async close() {
      if (socket.destroyed) return
      if (!closing) {
        closing = true
        write(OP.close, Buffer.from([0x03, 0xe8]))
      }
      const timer = setTimeout(() => socket.destroy(), CLOSE_WAIT_MS)
      await closed
      clearTimeout(timer)
    },
    leave() {
      if (socket.destroyed) return
      if (!closing) {
        closing = true
        write(OP.close, Buffer.from([0x03, 0xe8]))
      }
      socket.end()
      socket.unref()
    },
    onMessage(listener) {
      messageListeners.push(listener)
      for (const text of early.splice(0)) listener(text)
    },
    onClose(listener) {
      closeListeners.push(listener)
    },
  }
}

function bigLength(length: number): Buffer {
  const bytes = Buffer.alloc(8)
  bytes.writeBigUInt64BE(BigInt(length))
  return bytes
}
