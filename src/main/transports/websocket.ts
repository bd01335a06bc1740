import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import { RPC_SUBPROTOCOL } from '../../shared/browser-login'
import type { ContractShape, Role } from '../../shared/ipc/define'
import { MAX_ENVELOPE_BYTES, type ServerMessage } from '../../shared/ipc/envelope'
import { type Dispatcher, parseTextEnvelope } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'

/** Frames past this are cut off by ws itself (close 1009); up to it we answer with a coded error. */
const HARD_FRAME_LIMIT_BYTES = 4 * MAX_ENVELOPE_BYTES
/**
 * Authenticated sockets: the UI needs a handful; a page that opens thousands only burns memory and
 * CPU on event fan-out. Unauthenticated ones never become sockets here (browser-mode's pre-login
 * gate bounds those), so a flood of strangers cannot use up these places.
 */
export const MAX_CONNECTIONS = 32
/**
 * Handlers one connection may have running at once (each may hold megabytes, e.g. an output view);
 * further requests wait in a queue of MAX_QUEUED_PER_CONNECTION, and beyond that are refused.
 */
export const MAX_RUNNING_PER_CONNECTION = 8
export const MAX_QUEUED_PER_CONNECTION = 256
/** A client that stops reading while we keep answering is dropped before its replies fill our memory. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024
/** Half-open sockets (a laptop that slept, a killed tab) are found and closed. */
const PING_INTERVAL_MS = 30_000

export interface WebSocketRpc {
  /**
   * Completes an upgrade that the caller has already authorised; false when the connection cap
   * refused it (503). `opened` gets the socket once the handshake is done, so the caller can
   * follow its close.
   */
  accept(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    opened?: (socket: WebSocket) => void,
  ): boolean
  /**
   * Completes the handshake only to close it at once with an application close code: the one way
   * a browser page learns why it was refused. Nothing is read from or sent to it before the close.
   */
  refuse(request: IncomingMessage, socket: Duplex, head: Buffer, closeCode: number, reason: string): void
  close(): Promise<void>
}

export interface WebSocketRpcOptions {
  /** Browser mode's page is the person (`ui`); a connection on the hub socket is an `agent`. */
  role?: Role
  /** Defaults to MAX_CONNECTIONS. */
  maxConnections?: number
}

/** The browser-mode transport: one socket per page, the same envelopes as Electron IPC. */
export function createWebSocketRpc<C extends ContractShape>(
  dispatcher: Dispatcher,
  hub: EventHub<C>,
  options: WebSocketRpcOptions = {},
): WebSocketRpc {
  const role = options.role ?? 'ui'
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: HARD_FRAME_LIMIT_BYTES,
    // Select our protocol only: the other one offered carries the session key and is never echoed.
    handleProtocols: selectRpcProtocol,
  })
  // Refused sockets live apart, so they never count against (or receive events of) the real ones.
  const refusals = new WebSocketServer({ noServer: true, maxPayload: 1, handleProtocols: selectRpcProtocol })

  server.on('connection', (socket: WebSocket) => {
    const connectionId = `ws-${randomUUID()}`
    const controller = new AbortController()
    let running = 0
    const queued: unknown[] = []
    const run = (envelope: unknown) => {
      running += 1
      void dispatcher
        .dispatch(envelope, { connectionId, role, transport: 'websocket', signal: controller.signal })
        .then((response) => {
          running -= 1
          send(response)
          const next = queued.shift()
          if (next !== undefined && !controller.signal.aborted) run(next)
        })
    }
    let alive = true
    socket.on('pong', () => {
      alive = true
    })
    const ping = setInterval(() => {
      if (!alive) {
        socket.terminate()
        return
      }
      alive = false
      socket.ping()
    }, PING_INTERVAL_MS)
    const send = (message: ServerMessage) => {
      if (socket.readyState !== socket.OPEN) return
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.close(1008, 'not reading its messages')
        return
      }
      socket.send(JSON.stringify(message))
    }
    const unsubscribe = hub.subscribe(send, { role, connectionId })

    socket.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? null : rawToText(data)
      const parsed =
        text === null ? ({ ok: false, response: binaryRefused() } as const) : parseTextEnvelope(text)
      if (!parsed.ok) {
        send(parsed.response)
        return
      }
      if (running >= MAX_RUNNING_PER_CONNECTION) {
        if (queued.length >= MAX_QUEUED_PER_CONNECTION) {
          send({
            kind: 'response',
            id: idOf(parsed.value),
            ok: false,
            error: {
              code: 'denied',
              message: `more than ${MAX_QUEUED_PER_CONNECTION} requests are waiting on this connection`,
            },
          })
          return
        }
        queued.push(parsed.value)
        return
      }
      run(parsed.value)
    })
    socket.on('close', () => {
      clearInterval(ping)
      unsubscribe()
      controller.abort()
    })
    socket.on('error', () => socket.terminate())
  })

  return {
    accept(request, socket, head, opened) {
      if (server.clients.size >= maxConnections) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return false
      }
      server.handleUpgrade(request, socket, head, (ws) => {
        opened?.(ws)
        server.emit('connection', ws, request)
      })
      return true
    },
    refuse(request, socket, head, closeCode, reason) {
      refusals.handleUpgrade(request, socket, head, (ws) => {
        ws.on('error', () => ws.terminate())
        ws.close(closeCode, reason)
      })
    },
    async close() {
      for (const client of [...server.clients, ...refusals.clients]) client.terminate()
      await new Promise<void>((resolve) => refusals.close(() => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function selectRpcProtocol(protocols: Set<string>): string | false {
  return protocols.has(RPC_SUBPROTOCOL) ? RPC_SUBPROTOCOL : false
}

function rawToText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

function binaryRefused(): ServerMessage {
  return {
    kind: 'response',
    id: null,
    ok: false,
    error: { code: 'invalid_input', message: 'binary frames are not accepted' },
  }
}

function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null
  const id = (value as { id?: unknown }).id
  return typeof id === 'number' || typeof id === 'string' ? id : null
}
