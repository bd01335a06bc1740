import { rmSync } from 'node:fs'
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { type HostResolver, systemResolver } from '../network/host-resolver'
import { vetPublicDestination } from '../network/public-egress-policy'
import { isAllowlistDomain } from './sandbox-settings-check'

/** One decision of the proxy, logged for every request whatever the outcome. */
export interface ProxyDecision {
  at: string
  method: string
  host: string
  port: number
  allowed: boolean
  reason: string
}

export interface AllowlistProxyOptions {
  /** The Unix socket the proxy listens on; bound into each allowlist sandbox. */
  socketPath: string
  /** Read on every request, so a Settings change applies to the next connection. */
  allowlist: () => string[]
  resolver?: HostResolver
  /**
   * Tests only, never from settings.json: loopback ports the public-egress policy lets through,
   * so a 127.0.0.1 test server can stand in for a public host.
   */
  admitLoopbackPorts?: number[]
  onDecision: (decision: ProxyDecision) => void
}

export interface AllowlistProxy {
  socketPath: string
  close(): Promise<void>
}

/** The header a 403 carries, so the blocked-line explainer can name the host. */
export const BLOCKED_HEADER = 'x-shellgate-sandbox'

/**
 * An HTTP proxy (CONNECT for https, absolute-form requests for http) that admits a host only when
 * it is on the allowlist AND the public-egress policy accepts every address it resolves to; the
 * connection is pinned to the vetted address. Anything else is answered 403 with the reason.
 */
export async function startAllowlistProxy(options: AllowlistProxyOptions): Promise<AllowlistProxy> {
  const sockets = new Set<Socket>()
  const server = createServer((request, response) => void forwardPlain(request, response))
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    void tunnel(request, client, head)
  })

  const decide = async (method: string, host: string, port: number) => {
    const verdict = await vet(host, port)
    options.onDecision({ at: new Date().toISOString(), method, host, port, ...verdict })
    return verdict
  }

  const vet = async (
    host: string,
    port: number,
  ): Promise<{ allowed: boolean; reason: string; address?: string }> => {
    const name = host.toLowerCase().replace(/\.$/, '')
    if (!isAllowlistDomain(name) || !onList(name, options.allowlist())) {
      return { allowed: false, reason: `${name} is not in sandbox.allowlist` }
    }
    const resolver = options.resolver ?? systemResolver
    try {
      if (options.admitLoopbackPorts?.includes(port)) {
        const answers = await resolver(name)
        if (answers.length > 0 && answers.every((answer) => answer.address === '127.0.0.1')) {
          return { allowed: true, reason: 'on the allowlist (test loopback admission)', address: '127.0.0.1' }
        }
      }
      const verdict = await vetPublicDestination(new URL(`http://${name}:${port}/`), resolver)
      if (!verdict.allowed) return { allowed: false, reason: verdict.reason }
      return { allowed: true, reason: 'on the allowlist', address: verdict.destination.address }
    } catch (error) {
      return { allowed: false, reason: `${name} could not be resolved: ${(error as Error).message}` }
    }
  }

  const tunnel = async (request: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => client.destroy())
    const { host, port } = splitHostPort(request.url ?? '', 443)
    const verdict = await decide('CONNECT', host, port)
    if (!verdict.allowed || !verdict.address) {
      client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${sanitize(verdict.reason)}\r\n\r\n`)
      return
    }
    const upstream = connect(port, verdict.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => client.destroy())
  }

  const forwardPlain = async (request: IncomingMessage, response: ServerResponse) => {
    let target: URL
    try {
      target = new URL(request.url ?? '')
    } catch {
      response.writeHead(400).end('shellgate sandbox proxy: absolute http:// URLs only\n')
      return
    }
    if (target.protocol !== 'http:') {
      response.writeHead(400).end('shellgate sandbox proxy: absolute http:// URLs only\n')
      return
    }
    const port = Number(target.port || 80)
    const verdict = await decide(request.method ?? 'GET', target.hostname, port)
    if (!verdict.allowed || !verdict.address) {
      response.writeHead(403, { [BLOCKED_HEADER]: sanitize(verdict.reason), 'content-type': 'text/plain' })
      response.end(`blocked by the Shellgate sandbox proxy: ${verdict.reason}\n`)
      return
    }
    const upstream = httpRequest(
      {
        host: verdict.address,
        port,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: { ...forwardedHeaders(request.headers), host: target.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502)
      response.end(`shellgate sandbox proxy: ${error.message}\n`)
    })
    request.pipe(upstream)
  }

  rmSync(options.socketPath, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.socketPath, () => resolve())
  })
  return {
    socketPath: options.socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => {
          rmSync(options.socketPath, { force: true })
          resolve()
        })
      }),
  }
}

/** `*.example.com` admits subdomains (not example.com itself); any other entry is an exact name. */
export function onList(host: string, allowlist: string[]): boolean {
  return allowlist.some((raw) => {
    const entry = raw.toLowerCase().replace(/\.$/, '')
    if (!isAllowlistDomain(entry)) return false
    if (entry.startsWith('*.')) return host.endsWith(entry.slice(1))
    return host === entry
  })
}

/** Proxy-only headers stop here: a credential meant for a proxy must never reach the origin. */
function forwardedHeaders(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const forwarded = { ...headers }
  delete forwarded['proxy-authorization']
  delete forwarded['proxy-connection']
  return forwarded
}

function splitHostPort(target: string, fallbackPort: number): { host: string; port: number } {
  const at = target.lastIndexOf(':')
  if (at <= 0) return { host: target, port: fallbackPort }
  const port = Number(target.slice(at + 1))
  return {
    host: target.slice(0, at).replace(/^\[|\]$/g, ''),
    port: Number.isInteger(port) ? port : fallbackPort,
  }
}

function sanitize(text: string): string {
  return text.replace(/[\r\n]/g, ' ').slice(0, 300)
}
