import { LOGOUT_CLOSE_CODE, type LoginRefusalCode, refusalForCloseCode } from '../browser-login'
import type { ClientTransport } from './client'
import type { EventEnvelope, RequestId, ResponseEnvelope, ServerMessage } from './envelope'

/** The part of the WebSocket API we use; the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: 'open' | 'error', listener: () => void): void
  addEventListener(type: 'close', listener: (event: { code: number }) => void): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

const OPEN = 1
const RECONNECT_DELAY_MS = 500
/**
 * A reloaded page can be faster than the server's view of its old socket closing, which reads as
 * "this login is in use" for a moment; a few tries cover that, a real second user does not go away.
 */
const KEY_IN_USE_RETRIES = 10

/** `refused`: the server turned this page's key down; retrying cannot help, so it stops. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'refused'

export type StatusListener = (status: ConnectionStatus, refusal: LoginRefusalCode | null) => void

export interface WebSocketClientTransport extends ClientTransport {
  onStatus(listener: StatusListener): () => void
  /** Closes for good: no reconnect, pending requests answered `cancelled`. */
  close(): void
  /** Browser mode: ends the login on the server (LOGOUT_CLOSE_CODE), then reports `refused: logged_out`. */
  logOut(): void
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
  // Requests that wait for a socket wake on its next open or close (or the end): a request made
  // between a drop and the reconnect waits for the next socket instead of writing to a dead one.
  const waiting = new Set<() => void>()
  const wake = () => {
    for (const resume of waiting) resume()
    waiting.clear()
  }
  const nextSocketChange = () => new Promise<void>((resolve) => waiting.add(resolve))
  let closedForGood = false
  let inUseTries = 0
  let loggingOut = false

  const setStatus = (status: ConnectionStatus, refusal: LoginRefusalCode | null = null) => {
    for (const listener of statusListeners) listener(status, refusal)
  }

  const connect = () => {
    setStatus('connecting')
    const current = open()
    socket = current
    current.addEventListener('open', wake)
    // A refused socket opens too, then closes with its code: so a socket counts as in use by us
    // only once the server has sent it something.
    current.addEventListener('open', () => setStatus('open'))
    current.addEventListener('message', (event) => {
      inUseTries = 0
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
      if (loggingOut) {
        wake()
        setStatus('refused', 'logged_out')
        return
      }
      const refusal = refusalForCloseCode(event.code)
      if (refusal === 'key_in_use' && !closedForGood && inUseTries < KEY_IN_USE_RETRIES) {
        inUseTries += 1
        setStatus('closed')
        wake()
        scheduleReconnect(connect, RECONNECT_DELAY_MS)
        return
      }
      if (refusal) {
        closedForGood = true
        wake()
        setStatus('refused', refusal)
        return
      }
      setStatus('closed')
      wake()
      if (!closedForGood) scheduleReconnect(connect, RECONNECT_DELAY_MS)
    })
  }
  connect()

  return {
    async request(envelope) {
      const cancelled = (message: string): ResponseEnvelope => ({
        kind: 'response',
        id: envelope.id,
        ok: false,
        error: { code: 'cancelled', message },
      })
      while (!closedForGood && socket.readyState !== OPEN) await nextSocketChange()
      if (closedForGood) return cancelled('the connection is closed')
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
      wake()
      socket.close()
    },
    logOut() {
      closedForGood = true
      loggingOut = true
      socket.close(LOGOUT_CLOSE_CODE, 'logout')
    },
  }
}
