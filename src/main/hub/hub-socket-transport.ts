import { connect } from 'node:net'
import WebSocket from 'ws'
import type { ClientTransport } from '../../shared/ipc/client'
import type { EventEnvelope, RequestId, ResponseEnvelope, ServerMessage } from '../../shared/ipc/envelope'
import type { HubEndpoint } from './endpoint'

/**
 * Answers can be large (bash.output is up to 4 MiB of text, more once JSON-escaped); this matches
 * the most the hub buffers for one client before it drops it.
 */
const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024

export interface HubSocketTransport extends ClientTransport {
  close(): Promise<void>
  onClose(listener: () => void): () => void
}

export type OpenOutcome =
  | { kind: 'open'; transport: HubSocketTransport }
  | { kind: 'stale' }
  | { kind: 'foreign'; reason: string }
  | { kind: 'timeout' }

/**
 * One WebSocket to the hub over its Unix socket or pipe. Unlike the browser's transport it does
 * not reconnect: a hub that went away is a fact the caller (the MCP adapter) must report.
 */
export function openHubSocket(endpoint: HubEndpoint, timeoutMs: number): Promise<OpenOutcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket('ws://shellgate-hub/rpc', {
      createConnection: () => connect(endpoint.path),
      handshakeTimeout: timeoutMs,
      maxPayload: MAX_PAYLOAD_BYTES,
      perMessageDeflate: false,
    })
    let settled = false
    // Our own bound: ws's handshakeTimeout does not fire when we supply the connection ourselves.
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' })
      socket.terminate()
    }, timeoutMs)
    const settle = (outcome: OpenOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (outcome.kind !== 'open') socket.on('error', () => undefined)
      resolve(outcome)
    }
    socket.once('unexpected-response', (_request, response) => {
      settle({ kind: 'foreign', reason: `it answered HTTP ${response.statusCode} instead of a WebSocket` })
      socket.terminate()
    })
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') settle({ kind: 'stale' })
      else if (/timeout/i.test(error.message)) settle({ kind: 'timeout' })
      else settle({ kind: 'foreign', reason: 'it does not speak the hub protocol' })
      socket.terminate()
    })
    socket.once('open', () => settle({ kind: 'open', transport: wrap(socket) }))
  })
}

function wrap(socket: WebSocket): HubSocketTransport {
  const pending = new Map<RequestId, (response: ResponseEnvelope) => void>()
  const eventListeners = new Set<(event: EventEnvelope) => void>()
  const closeListeners = new Set<() => void>()
  let closed = false
  const closedPromise = new Promise<void>((resolve) => socket.once('close', () => resolve()))

  socket.on('message', (data) => {
    let message: ServerMessage
    try {
      message = JSON.parse(String(data)) as ServerMessage
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
  socket.on('error', () => socket.terminate())
  socket.once('close', () => {
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
      if (closed || socket.readyState !== WebSocket.OPEN) {
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
    async close() {
      if (!closed) socket.close()
      await closedPromise
    },
  }
}
