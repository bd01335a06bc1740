import { type LoginRefusalCode, refusalForCloseCode } from '../browser-login'
import type { ClientTransport } from './client'
import type { EventEnvelope, RequestId, ResponseEnvelope, ServerMessage } from './envelope'

/** The part of the WebSocket API we use; the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(): void
  addEventListener(type: 'open' | 'error', listener: () => void): void
  addEventListener(type: 'close', listener: (event: { code: number }) => void): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

const OPEN = 1
const RECONNECT_DELAY_MS = 500

/** `refused`: the server turned this page's key down; retrying cannot help, so it stops. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'refused'

export type StatusListener = (status: ConnectionStatus, refusal: LoginRefusalCode | null) => void

export interface WebSocketClientTransport extends ClientTransport {
  onStatus(listener: StatusListener): () => void
  /** Closes for good: no reconnect, pending requests answered `cancelled`. */
  close(): void
}

/**
 * Reconnects after a drop (a server restart or a laptop waking up); requests that were in
 * flight when the socket closed are answered `cancelled`, never left hanging.
 */
export function createWebSocketClientTransport(
  open: () => WebSocketLike,
  /** Injected because src/shared has no timers of its own (no DOM, no Node). */
  scheduleReconnect: (reconnect: () => void, delayMs: number) => void,
): WebSocketClientTransport {
  const pending = new Map<RequestId, (response: ResponseEnvelope) => void>()
  const eventListeners = new Set<(event: EventEnvelope) => void>()
  const statusListeners = new Set<StatusListener>()
  let socket: WebSocketLike
  let ready: Promise<void>
  let closedForGood = false

  const setStatus = (status: ConnectionStatus, refusal: LoginRefusalCode | null = null) => {
    for (const listener of statusListeners) listener(status, refusal)
  }

  const connect = () => {
    setStatus('connecting')
    const current = open()
    socket = current
    ready = new Promise<void>((resolve) => current.addEventListener('open', () => resolve()))
    current.addEventListener('open', () => setStatus('open'))
    current.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as ServerMessage
      if (message.kind === 'event') {
        for (const listener of eventListeners) listener(message)
      } else if (message.id !== null) {
        pending.get(message.id)?.(message)
        pending.delete(message.id)
      }
    })
    current.addEventListener('close', (event) => {
      for (const [id, answer] of pending) {
        answer({
          kind: 'response',
          id,
          ok: false,
          error: { code: 'cancelled', message: 'the connection closed' },
        })
      }
      pending.clear()
      const refusal = refusalForCloseCode(event.code)
      if (refusal) {
        closedForGood = true
        setStatus('refused', refusal)
        return
      }
      setStatus('closed')
      if (!closedForGood) scheduleReconnect(connect, RECONNECT_DELAY_MS)
    })
  }
  connect()

  return {
    async request(envelope) {
      if (closedForGood) {
        return {
          kind: 'response',
          id: envelope.id,
          ok: false,
          error: { code: 'cancelled', message: 'the connection is closed' },
        }
      }
      if (socket.readyState !== OPEN) await ready
      return new Promise<ResponseEnvelope>((resolve) => {
        pending.set(envelope.id, resolve)
        socket.send(JSON.stringify(envelope))
      })
    },
    onEvent(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    close() {
      closedForGood = true
      socket.close()
    },
  }
}
