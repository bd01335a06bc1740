import { connect } from 'node:net'
import type { ClientTransport } from '../../shared/ipc/client'
import type { EventEnvelope, RequestId, ResponseEnvelope, ServerMessage } from '../../shared/ipc/envelope'
import type { HubEndpoint } from './endpoint'
import { type HubWebSocket, upgradeToWebSocket } from './hub-websocket'

/** The hub's RPC path (hub-server.ts refuses any other). */
const HUB_RPC_PATH = '/rpc'

/**
 * Answers can be large (bash.output is up to 4 MiB of text, more once JSON-escaped); this matches
 * the most the hub buffers for one client before it drops it.
 */
const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024

export interface HubSocketTransport extends ClientTransport {
  close(): Promise<void>
  /** Closes without waiting for the hub's side (HubWebSocket.leave). */
  leave(): void
  onClose(listener: () => void): () => void
}

export type OpenOutcome =
  | { kind: 'open'; transport: HubSocketTransport }
  | { kind: 'stale' }
  | { kind: 'foreign'; reason: string }
  | { kind: 'timeout' }

/**
 * One WebSocket to the hub over its Unix socket or pipe (hub-websocket.ts: the client half only). Unlike the browser's transport it does
 * not reconnect: a hub that went away is a fact the caller (the MCP adapter) must report.
 */
export function openHubSocket(endpoint: HubEndpoint, timeoutMs: number): Promise<OpenOutcome> {
  return new Promise((resolve) => {
    const socket = connect(endpoint.path)
    let settled = false
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' })
      socket.destroy()
    }, timeoutMs)
    const settle = (outcome: OpenOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(outcome)
    }
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') settle({ kind: 'stale' })
      else settle({ kind: 'foreign', reason: 'it does not speak the hub protocol' })
      socket.destroy()
    })
    socket.once('connect', () => {
      void upgradeToWebSocket(socket, HUB_RPC_PATH, MAX_PAYLOAD_BYTES).then((outcome) => {
        if (outcome.kind === 'open') settle({ kind: 'open', transport: wrap(outcome.socket) })
        else if (outcome.kind === 'refused')
          settle({ kind: 'foreign', reason: `it answered HTTP ${outcome.status} instead of a WebSocket` })
        else settle({ kind: 'foreign', reason: outcome.reason })
      })
    })
  })
}

function wrap(socket: HubWebSocket): HubSocketTransport {
  const pending = new Map<RequestId, (response: ResponseEnvelope) => void>()
  const eventListeners = new Set<(event: EventEnvelope) => void>()
  const closeListeners = new Set<() => void>()
  let closed = false

  socket.onMessage((data) => {
    let message: ServerMessage
    try {
      message = JSON.parse(data) as ServerMessage
    } catch {
      return
    }
    if (message.kind === 'event') {
      for (const listener of eventListeners) listener(message)
    } else if (message.id !== null) {
      pending.get(message.id)?.(message)
      pending.delete(message.id)
    }
  })
  socket.onClose(() => {
    closed = true
    for (const [id, answer] of pending) {
      answer({
        kind: 'response',
        id,
        ok: false,
        error: { code: 'cancelled', message: 'the hub connection closed' },
      })
    }
    pending.clear()
    for (const listener of closeListeners) listener()
  })

  return {
    request(envelope) {
      if (closed) {
        return Promise.resolve({
          kind: 'response',
          id: envelope.id,
          ok: false,
          error: { code: 'cancelled', message: 'the hub connection is closed' },
        })
      }
      return new Promise((resolve) => {
        pending.set(envelope.id, resolve)
        socket.send(JSON.stringify(envelope))
      })
    },
    onEvent(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    onClose(listener) {
      closeListeners.add(listener)
      return () => closeListeners.delete(listener)
    },
    close: () => socket.close(),
    leave: () => socket.leave(),
  }
}
