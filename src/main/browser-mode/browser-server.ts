import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ContractShape } from '../../shared/ipc/define'
import type { Dispatcher } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'
import { contentTypeFor, resolveAppPath } from '../security/app-path'
import { SECURITY_HEADERS } from '../security/content-security-policy'
import { createWebSocketRpc } from '../transports/websocket'
import { createAccessToken, tokenCookieName } from './access-token'
import { decidePageRequest, decideUpgrade } from './request-policy'

export const RPC_PATH = '/rpc'

export interface BrowserServerOptions {
  rendererDir: string
  dispatcher: Dispatcher
  hub: EventHub<ContractShape>
  /** 0 picks a free port. */
  port: number
  token?: string
}

export interface BrowserServer {
  port: number
  token: string
  /** The URL to open: carries the token once; the page then lives on a cookie. */
  url: string
  close(): Promise<void>
}

export class PortBusyError extends Error {
  override name = 'PortBusyError'
}

/** Serves the built renderer and the RPC socket on one 127.0.0.1 origin. */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? createAccessToken()
  const rpc = createWebSocketRpc(options.dispatcher, options.hub)
  let port = options.port
  const server = createServer((request, response) => {
    void servePage(request, response, options.rendererDir, token, port).catch(() => {
      if (!response.headersSent) response.writeHead(500)
      response.end()
    })
  })

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const decision =
      url.pathname === RPC_PATH
        ? decideUpgrade(request.headers, url, token, { port })
        : ({ allowed: false, status: 403, reason: 'no socket here' } as const)
    if (!decision.allowed) {
      socket.end(
        `HTTP/1.1 ${decision.status} ${decision.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      )
      return
    }
    rpc.accept(request, socket, head)
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
  port = (server.address() as AddressInfo).port

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      await rpc.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function servePage(
  request: IncomingMessage,
  response: ServerResponse,
  rendererDir: string,
  token: string,
  port: number,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  const decision = decidePageRequest(request.headers, url, token, { port })
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
  if (url.searchParams.has('token')) {
    // Trade the token in the address bar for an HttpOnly cookie so it leaves history and referrers.
    url.searchParams.delete('token')
    response.writeHead(303, {
      Location: `${url.pathname}${url.search}`,
      'Set-Cookie': `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      ...SECURITY_HEADERS,
    })
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
