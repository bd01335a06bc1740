import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import {
  LOGIN_CODE_PARAM,
  LOGIN_EXCHANGE_PATH,
  LOGOUT_CLOSE_CODE,
  RPC_CLOSE_CODES,
} from '../../shared/browser-login'
import type { ContractShape } from '../../shared/ipc/define'
import type { Dispatcher } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'
import { contentTypeFor, resolveAppPath } from '../security/app-path'
import { SECURITY_HEADERS } from '../security/content-security-policy'
import { createWebSocketRpc } from '../transports/websocket'
import { createLoginCodes } from './login-codes'
import { exchangeLoginCode } from './login-exchange'
import { createPreLoginGate } from './pre-login-gate'
import { decideCredentialedRequest, decidePageRequest, presentedSessionKey } from './request-policy'
import { createBrowserSessions } from './browser-sessions'
import { createSessionKeys } from './session-keys'

export const RPC_PATH = '/rpc'

export interface BrowserServerOptions {
  rendererDir: string
  dispatcher: Dispatcher
  hub: EventHub<ContractShape>
  /** 0 picks a free port. */
  port: number
  /** Tests only: a shorter pre-login deadline, a clock to expire login codes and sessions with, and shorter session lifetimes. */
  preLoginDeadlineMs?: number
  now?: () => number
  sessionIdleMs?: number
  sessionAbsoluteMs?: number
}

export interface BrowserServer {
  port: number
  /** `http://127.0.0.1:PORT`: static pages only; nothing here is a credential. */
  origin: string
  /**
   * A fresh login address, `http://127.0.0.1:PORT/#code=<one-time code>`, on every call (for
   * `serve`, `--open`, `shellgate ui`). The code sits in the fragment, which no browser sends.
   */
  mintLoginUrl(): string
  /** TCP connections that have not presented a valid key yet (bounded; for tests and status). */
  unauthenticatedConnections(): number
  close(): Promise<void>
}

export class PortBusyError extends Error {
  override name = 'PortBusyError'
}

/** Serves the built renderer, the login exchange and the RPC socket on one 127.0.0.1 origin. */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const codes = createLoginCodes({ now: options.now })
  const sessions = createBrowserSessions({
    keys: createSessionKeys(),
    now: options.now,
    idleMs: options.sessionIdleMs,
    absoluteMs: options.sessionAbsoluteMs,
  })
  const gate = createPreLoginGate({ deadlineMs: options.preLoginDeadlineMs })
  const rpc = createWebSocketRpc(options.dispatcher, options.hub)
  const served = { port: options.port }
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const handled =
      url.pathname === LOGIN_EXCHANGE_PATH
        ? exchangeLoginCode(request, response, { codes, sessions, origin: served })
        : servePage(request, response, url, options.rendererDir, served)
    void handled.catch(() => {
      if (!response.headersSent) response.writeHead(500, SECURITY_HEADERS)
      response.end()
    })
  })
  server.on('connection', (socket: Socket) => gate.admit(socket))

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== RPC_PATH) return refuseUpgrade(socket, 'no socket here')
    const decision = decideCredentialedRequest(request.headers, served)
    if (!decision.allowed) return refuseUpgrade(socket, decision.reason)
    const key = presentedSessionKey(request.headers['sec-websocket-protocol'])
    // Our own origin without a valid key: a page that needs a fresh address. Tell it with a code.
    if (key === null) return rpc.refuse(request, socket, head, RPC_CLOSE_CODES.key_missing, 'key_missing')
    let ws: { close(code: number, reason: string): void } | null = null
    // The session's end (its lifetime, a logout elsewhere) closes the page with a code it can show.
    const admitted = sessions.admit(key, () => ws?.close(RPC_CLOSE_CODES.key_expired, 'key_expired'))
    if (!admitted.ok) return rpc.refuse(request, socket, head, RPC_CLOSE_CODES[admitted.code], admitted.code)
    gate.authenticated(request.socket)
    const accepted = rpc.accept(request, socket, head, (opened) => {
      ws = opened
      opened.once('close', (code: number) => admitted.socket.closed(code === LOGOUT_CLOSE_CODE))
    })
    // Refused at the cap (503): it never became the page's socket.
    if (!accepted) admitted.socket.closed(false)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' ? new PortBusyError(`port ${options.port} on 127.0.0.1 is busy`) : error,
      )
    })
    // Loopback only: browser mode is never reachable from another machine.
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  served.port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${served.port}`

  return {
    port: served.port,
    origin,
    mintLoginUrl: () => `${origin}/#${LOGIN_CODE_PARAM}=${codes.mint()}`,
    unauthenticatedConnections: () => gate.size(),
    async close() {
      sessions.close()
      gate.close()
      await rpc.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function refuseUpgrade(socket: Duplex, reason: string): void {
  const body = `${reason}\n`
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

async function servePage(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  rendererDir: string,
  served: { port: number },
): Promise<void> {
  const decision = decidePageRequest(request.headers, served)
  if (!decision.allowed) {
    response.writeHead(decision.status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
    response.end(`${decision.reason}\n`)
    return
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', ...SECURITY_HEADERS })
    response.end()
    return
  }
  const filePath = resolveAppPath(rendererDir, url.pathname)
  const info = filePath ? await stat(filePath).catch(() => null) : null
  if (!filePath || !info?.isFile()) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
    response.end('not found\n')
    return
  }
  response.writeHead(200, {
    'Content-Type': contentTypeFor(filePath),
    'Content-Length': info.size,
    ...SECURITY_HEADERS,
  })
  if (request.method === 'HEAD') {
    response.end()
    return
  }
  createReadStream(filePath).pipe(response)
}
