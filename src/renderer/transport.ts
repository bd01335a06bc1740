import { rpcSubprotocols } from '../shared/browser-login'
import { forgetSessionKey } from './login/browser-login'
import type { ClientTransport } from '../shared/ipc/client'
import {
  createWebSocketClientTransport,
  type StatusListener,
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
  onStatus: ((listener: StatusListener) => () => void) | null
  /** Browser mode only: ends this page's login on the server and forgets its key. */
  logOut: (() => void) | null
}

/** Electron hands us its preload bridge; null in browser mode, which must log in first. */
export function electronTransport(): ConnectedTransport | null {
  return window.shellgate
    ? { transport: window.shellgate, runtime: 'electron', onStatus: null, logOut: null }
    : null
}

/**
 * Browser mode talks to /rpc on its own origin. The key goes in Sec-WebSocket-Protocol rather
 * than the URL (URLs are logged) or a first message (then strangers' sockets would be open and
 * sending us frames before we know who they are): the server decides at the handshake.
 */
export function connectBrowserTransport(sessionKey: string): ConnectedTransport {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`
  const transport = createWebSocketClientTransport(
    () => new WebSocket(url, rpcSubprotocols(sessionKey)) as unknown as WebSocketLike,
    (reconnect, delayMs) => window.setTimeout(reconnect, delayMs),
  )
  transport.onStatus((status) => {
    if (status === 'refused') forgetSessionKey(sessionStorage)
  })
  const logOut = () => {
    forgetSessionKey(sessionStorage)
    transport.logOut()
  }
  return { transport, runtime: 'browser', onStatus: transport.onStatus, logOut }
}
