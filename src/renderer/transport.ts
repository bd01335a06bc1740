import type { ClientTransport } from '../shared/ipc/client'
import {
  type ConnectionStatus,
  createWebSocketClientTransport,
  type WebSocketLike,
} from '../shared/ipc/websocket-client'

declare global {
  interface Window {
    /** Present only in Electron, where the preload exposes exactly these two functions. */
    shellgate?: ClientTransport
  }
}

export type RuntimeKind = 'electron' | 'browser'

export interface ConnectedTransport {
  transport: ClientTransport
  runtime: RuntimeKind
  /** Browser mode only: the socket drops when the server restarts and comes back by itself. */
  onStatus: ((listener: (status: ConnectionStatus) => void) => () => void) | null
}

/** Electron hands us its preload bridge; in browser mode the page talks to /rpc on its own origin. */
export function connectTransport(): ConnectedTransport {
  if (window.shellgate) return { transport: window.shellgate, runtime: 'electron', onStatus: null }
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`
  const transport = createWebSocketClientTransport(
    () => new WebSocket(url) as unknown as WebSocketLike,
    (reconnect, delayMs) => window.setTimeout(reconnect, delayMs),
  )
  return { transport, runtime: 'browser', onStatus: transport.onStatus }
}
