import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import type { ContractShape } from '../../shared/ipc/define'
import { MAX_ENVELOPE_BYTES, type ServerMessage } from '../../shared/ipc/envelope'
import { type Dispatcher, parseTextEnvelope } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'

/** Frames past this are cut off by ws itself (close 1009); up to it we answer with a coded error. */
const HARD_FRAME_LIMIT_BYTES = 4 * MAX_ENVELOPE_BYTES

export interface WebSocketRpc {
  /** Completes an upgrade that the caller has already authorised. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void
  close(): Promise<void>
}

/** The browser-mode transport: one socket per page, the same envelopes as Electron IPC. */
export function createWebSocketRpc<C extends ContractShape>(
  dispatcher: Dispatcher,
  hub: EventHub<C>,
): WebSocketRpc {
  const server = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT_BYTES })

  server.on('connection', (socket: WebSocket) => {
    const connectionId = `ws-${randomUUID()}`
    const controller = new AbortController()
    const send = (message: ServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message))
    }
    const unsubscribe = hub.subscribe(send)

    socket.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? null : rawToText(data)
      const parsed =
        text === null ? ({ ok: false, response: binaryRefused() } as const) : parseTextEnvelope(text)
      if (!parsed.ok) {
        send(parsed.response)
        return
      }
      void dispatcher
        .dispatch(parsed.value, { connectionId, transport: 'websocket', signal: controller.signal })
        .then(send)
    })
    socket.on('close', () => {
      unsubscribe()
      controller.abort()
    })
    socket.on('error', () => socket.terminate())
  })

  return {
    accept(request, socket, head) {
      server.handleUpgrade(request, socket, head, (ws) => server.emit('connection', ws, request))
    },
    close() {
      for (const client of server.clients) client.terminate()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
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
