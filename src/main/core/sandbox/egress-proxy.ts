import { rmSync } from 'node:fs'
import {
  type ClientRequest,
  createServer,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import {
  type AddressInfo,
  connect,
  createServer as createNetServer,
  type Server,
  type Socket,
} from 'node:net'
import {
  authorityOf,
  openParentTunnel,
  type ParentProxyFor,
  parentAuthorization,
  parentEndpoint,
  parentTlsOptions,
} from './parent-proxy'

/** One request the proxy must decide: a CONNECT (https, or anything tunnelled) or an absolute-form http request. */
export interface EgressRequest {
  method: string
  host: string
  port: number
}

/** allowed: connect to exactly `address` (vetted, pinned). Refused: answered 403 with the reason. */
export type EgressVerdict = { allowed: true; address: string } | { allowed: false; reason: string }

export interface EgressProxyOptions {
  /** The Unix socket the proxy listens on; Linux binds its folder into the sandbox. */
  socketPath: string
  /** macOS: also listen on an ephemeral 127.0.0.1 port, since there is no namespace to bridge into. */
  loopbackTcp?: boolean
  /** May take long (a person is asked): the client's request is held until it settles. */
  decide(request: EgressRequest): Promise<EgressVerdict>
  /** The person's own proxy to go out through, per destination (after the verdict); absent or null: direct. */
  parent?: ParentProxyFor
}

export interface EgressProxy {
  socketPath: string
  /** The 127.0.0.1 port when loopbackTcp was asked for, else null. */
  tcpPort: number | null
  close(): Promise<void>
}

/** The header a 403 carries, so the blocked-line explainer can name the host. */
export const BLOCKED_HEADER = 'x-shellgate-sandbox'

/**
 * An HTTP proxy (CONNECT for https, absolute-form requests for http) that asks `decide` about each
 * destination and connects only to the address the verdict pins; anything refused is answered 403
 * with the reason, in a header and in the body, so the command's own error says why.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const sockets = new Set<Socket>()
  /** Aborted by close(): a tunnel still waiting for the person's proxy to answer is dropped. */
  const closing = new AbortController()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  }
  const handler = createServer((request, response) => void forwardPlain(request, response))
  handler.on('connection', track)
  handler.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    void tunnel(request, client, head)
  })
  handler.on('clientError', (_error, socket) => socket.destroy())

  const decide = async (request: EgressRequest): Promise<EgressVerdict> => {
    try {
      return await options.decide(request)
    } catch (error) {
      return { allowed: false, reason: `the proxy could not decide: ${(error as Error).message}` }
    }
  }

  const tunnel = async (request: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => client.destroy())
    const target = splitHostPort(request.url ?? '')
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
      return
    }
    const verdict = await decide({ method: 'CONNECT', ...target })
    if (client.destroyed) return
    if (!verdict.allowed) {
      client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${oneLine(verdict.reason)}\r\n\r\n`)
      return
    }
    let upstream: Socket
    try {
      upstream = await dial(target.host, verdict.address, target.port)
    } catch (error) {
      if (!client.destroyed)
        client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${oneLine((error as Error).message)}\n`)
      return
    }
    track(upstream)
    if (client.destroyed) return void upstream.destroy()
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    upstream.write(head)
    upstream.pipe(client)
    client.pipe(upstream)
    upstream.on('error', () => client.destroy())
    client.on('close', () => upstream.destroy())
  }

  /** A socket to the pinned address: through the person's proxy when one applies, else direct. */
  const dial = (host: string, address: string, port: number): Promise<Socket> => {
    const parent = options.parent?.(destinationUrl(host, port)) ?? null
    if (parent) return openParentTunnel(parent, address, port, closing.signal)
    return new Promise((resolve, reject) => {
      const socket = connect(port, address, () => {
        socket.off('error', reject)
        resolve(socket)
      })
      socket.once('error', reject)
    })
  }

  const forwardPlain = async (request: IncomingMessage, response: ServerResponse) => {
    let target: URL | null = null
    try {
      target = new URL(request.url ?? '')
    } catch {}
    if (target?.protocol !== 'http:') {
      response.writeHead(400).end('shellgate sandbox proxy: absolute http:// URLs only\n')
      return
    }
    const port = Number(target.port || 80)
    const verdict = await decide({ method: request.method ?? 'GET', host: target.hostname, port })
    if (!verdict.allowed) {
      response.writeHead(403, { [BLOCKED_HEADER]: oneLine(verdict.reason), 'content-type': 'text/plain' })
      response.end(`blocked by the Shellgate sandbox proxy: ${verdict.reason}\n`)
      return
    }
    const path = `${target.pathname}${target.search}`
    const headers = { ...forwardedHeaders(request.headers), host: target.host }
    const onAnswer = (answer: IncomingMessage) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    }
    const parent = options.parent?.(destinationUrl(target.hostname, port)) ?? null
    const endpoint = parent && parentEndpoint(parent)
    let upstream: ClientRequest
    if (parent && endpoint && !endpoint.socks) {
      upstream = (endpoint.tls ? httpsRequest : httpRequest)(
        {
          host: endpoint.host,
          port: endpoint.port,
          method: request.method,
          // Absolute form to the pinned address, as for CONNECT (see openParentTunnel).
          path: `http://${authorityOf(verdict.address, port)}${path}`,
          headers: { ...headers, ...parentAuthorization(parent) },
          ...(endpoint.tls ? parentTlsOptions(parent, endpoint) : {}),
        },
        onAnswer,
      )
    } else {
      // A SOCKS parent only tunnels: the request goes over a tunnel it opened to the pinned address.
      let tunnelled: Socket | undefined
      if (parent) {
        try {
          tunnelled = await openParentTunnel(parent, verdict.address, port, closing.signal)
        } catch (error) {
          response.writeHead(502).end(`shellgate sandbox proxy: ${(error as Error).message}\n`)
          return
        }
        track(tunnelled)
      }
      const socket = tunnelled
      upstream = httpRequest(
        {
          host: verdict.address,
          port,
          method: request.method,
          path,
          headers,
          ...(socket ? { createConnection: () => socket } : {}),
        },
        onAnswer,
      )
    }
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502)
      response.end(`shellgate sandbox proxy: ${error.message}\n`)
    })
    request.pipe(upstream)
  }

  const servers: Server[] = [handler]
  rmSync(options.socketPath, { force: true })
  await listen(handler, options.socketPath)
  let tcpPort: number | null = null
  if (options.loopbackTcp) {
    // One http.Server cannot listen twice; a second net.Server hands its sockets to the first.
    const loopback = createNetServer()
    loopback.on('connection', (socket: Socket) => handler.emit('connection', socket))
    await listen(loopback, { host: '127.0.0.1', port: 0 })
    tcpPort = (loopback.address() as AddressInfo).port
    servers.push(loopback)
  }
  return {
    socketPath: options.socketPath,
    tcpPort,
    close: async () => {
      closing.abort()
      for (const socket of sockets) socket.destroy()
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
      rmSync(options.socketPath, { force: true })
    },
  }
}

function listen(server: Server, where: string | { host: string; port: number }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(where, () => resolve())
  })
}

/** Proxy-only headers stop here: a credential meant for a proxy must never reach the origin. */
function forwardedHeaders(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const forwarded = { ...headers }
  delete forwarded['proxy-authorization']
  delete forwarded['proxy-connection']
  return forwarded
}

/** `host:port` or `[v6]:port` of a CONNECT; null when it names no valid port. */
function splitHostPort(target: string): { host: string; port: number } | null {
  const at = target.lastIndexOf(':')
  if (at <= 0) return null
  const port = Number(target.slice(at + 1))
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return null
  return { host: target.slice(0, at).replace(/^\[|\]$/g, ''), port }
}

/** The destination as a URL, for NO_PROXY matching. */
function destinationUrl(host: string, port: number): URL {
  return new URL(`http://${authorityOf(host, port)}/`)
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ').slice(0, 300)
}
