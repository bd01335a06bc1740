import { connect as netConnect, type Socket } from 'node:net'
import { isIP } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { createCaLoader } from '../network/ca-certificate'
import { type NetworkConfig, resolveNetworkConfig, type NetworkConfigInput } from '../network/network-config'
import { resolveProxyRoute } from '../network/proxy-route'
import { redactProxyUrl } from '../network/proxy-url'
import { socksHandshake } from './socks-tunnel'

/**
 * The proxy the person's own network needs (network.httpProxy, SHELLGATE_HTTP_PROXY, or their
 * shell's sealed HTTPS_PROXY): on a network whose only way out is a corporate proxy, the sandbox
 * proxy decides first and then goes out through that one, instead of dialling direct.
 */
export interface ParentProxy {
  /** Full URL, credentials included: redact before showing it. http(s)://, socks4(a):// or socks5(h)://. */
  url: string
  /** The setting or variable it came from. */
  source: string
  /**
   * What an https:// parent's certificate is verified against: Node's roots plus network.caCertFile
   * (a corporate proxy's own CA), or undefined for Node's roots alone.
   */
  ca: string[] | undefined
}

/** Which parent a destination goes through, or null for direct (no proxy set, or NO_PROXY matched). */
export type ParentProxyFor = (target: URL) => ParentProxy | null

/** The CONNECT answer's header block is small; a parent that sends more than this is not a proxy. */
const PARENT_HEADER_MAX_BYTES = 16 * 1024
/** A parent that accepts the TCP connection but never answers CONNECT must not hold the command forever. */
export const PARENT_ANSWER_TIMEOUT_MS = 30_000

/** The schemes a tunnel can go out through; `socks:` is read as SOCKS5, as curl does. */
const CHAINABLE = /^(https?|socks[45]?[ah]?):\/\//i

/**
 * The parent for each destination under the network settings and the sealed shell proxies, in
 * seed 000's order (sandboxed commands are the person's own tools, so the sealed fallback applies).
 * An unusable parent is not chained: those destinations go direct, and `note` says so.
 * Throws NetworkConfigError when a Shellgate network setting itself is unusable (the CA file too).
 */
export function parentProxies(input: NetworkConfigInput): { parentFor: ParentProxyFor; note: string | null } {
  const config: NetworkConfig = resolveNetworkConfig(input)
  // Read now, so an unreadable CA file is the run's note rather than every connection's failure;
  // with no proxy at all it is not this room's to complain about.
  const ca = config.proxy || config.sealed.proxy ? createCaLoader(config.caCertFile)() : undefined
  const chainable = (url: string | null) => url !== null && CHAINABLE.test(url)
  let unchained: string | null = null
  const parentFor: ParentProxyFor = (target) => {
    let route: ReturnType<typeof resolveProxyRoute>
    try {
      route = resolveProxyRoute(target, config, { sealedFallback: true })
    } catch (error) {
      unchained = (error as Error).message
      return null
    }
    if (route.route !== 'proxy' || !route.proxyUrl) return null
    if (!chainable(route.proxyUrl)) {
      unchained = `${redactProxyUrl(route.proxyUrl)} is not an http, https or socks proxy`
      return null
    }
    return { url: route.proxyUrl, source: route.source ?? route.rule, ca }
  }
  // Asked once here for the note; each connection asks again for its own destination (NO_PROXY).
  parentFor(new URL('https://example.com/'))
  const note = unchained ? `the sandbox proxy connects direct, not through your proxy: ${unchained}` : null
  return { parentFor, note }
}

/**
 * A user name or password as written in the proxy URL, percent-decoded. A `%` that starts no
 * escape (a password like `50%off` in ALL_PROXY) is kept as written: decodeURIComponent would
 * throw inside a socket's listener, which nothing catches, and end the whole app.
 */
export function urlCredential(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

/** The Proxy-Authorization header for a parent URL with a user name, or none. */
export function parentAuthorization(parent: ParentProxy): Record<string, string> {
  const url = new URL(parent.url)
  if (url.username === '') return {}
  const pair = `${urlCredential(url.username)}:${urlCredential(url.password)}`
  return { 'proxy-authorization': `Basic ${Buffer.from(pair).toString('base64')}` }
}

/** `host:port`, an IPv6 address in brackets. */
export function authorityOf(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`
}

/** SOCKS's registered port (RFC 1928); http and https as usual. */
const SOCKS_DEFAULT_PORT = 1080

export interface ParentEndpoint {
  host: string
  port: number
  tls: boolean
  /** null for an http(s) parent (CONNECT), else the SOCKS version it speaks. */
  socks: 4 | 5 | null
}

/** Where to reach the parent itself, and how to talk to it. */
export function parentEndpoint(parent: ParentProxy): ParentEndpoint {
  const url = new URL(parent.url)
  const tls = url.protocol === 'https:'
  const socks = url.protocol.startsWith('socks') ? (url.protocol.startsWith('socks4') ? 4 : 5) : null
  const port = Number(url.port || (socks ? SOCKS_DEFAULT_PORT : tls ? 443 : 80))
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, tls, socks }
}

/** TLS options for an https:// parent: its name checked against its certificate, under the configured CA. */
export function parentTlsOptions(parent: ParentProxy, endpoint: ParentEndpoint) {
  // SNI carries names only; an address is still checked against the certificate's IP entries.
  return {
    ...(isIP(endpoint.host) ? {} : { servername: endpoint.host }),
    ...(parent.ca ? { ca: parent.ca } : {}),
  }
}

/**
 * A tunnel to `address:port` through the parent (CONNECT). The address is the one the egress
 * policy vetted and pinned, never the name: a parent on this machine that resolved the name again
 * could be rebound to the host's own loopback.
 */
export function openParentTunnel(
  parent: ParentProxy,
  address: string,
  port: number,
  signal: AbortSignal,
): Promise<Socket> {
  const endpoint = parentEndpoint(parent)
  const authority = authorityOf(address, port)
  const shown = redactProxyUrl(parent.url)
  return new Promise((resolve, reject) => {
    const socket: Socket = endpoint.tls
      ? tlsConnect({ host: endpoint.host, port: endpoint.port, ...parentTlsOptions(parent, endpoint) })
      : netConnect(endpoint.port, endpoint.host)
    const fail = (why: string) => {
      socket.destroy()
      reject(new Error(`the parent proxy ${shown} (${parent.source}) ${why}`))
    }
    socket.setTimeout(PARENT_ANSWER_TIMEOUT_MS, () => fail('did not answer'))
    // The run ended (the sandbox proxy is closing) while the parent had not answered yet.
    const closing = () => fail('was left: the command ended')
    if (signal.aborted) return closing()
    signal.addEventListener('abort', closing, { once: true })
    socket.once('close', () => signal.removeEventListener('abort', closing))
    socket.once('error', (error) => fail(`could not be reached: ${error.message}`))
    socket.once(endpoint.tls ? 'secureConnect' : 'connect', () => {
      if (endpoint.socks) {
        const url = new URL(parent.url)
        const credentials =
          url.username === ''
            ? null
            : { user: urlCredential(url.username), password: urlCredential(url.password) }
        socksHandshake(socket, endpoint.socks, address, port, credentials).then(
          () => {
            socket.setTimeout(0)
            socket.removeAllListeners('error')
            resolve(socket)
          },
          (error: Error) => fail(error.message),
        )
        return
      }
      socket.on('data', onData)
      const headers = Object.entries({ host: authority, ...parentAuthorization(parent) })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')
      socket.write(`CONNECT ${authority} HTTP/1.1\r\n${headers}\r\n`)
    })
    let received = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) {
        if (received.length > PARENT_HEADER_MAX_BYTES) fail('sent no HTTP answer')
        return
      }
      socket.off('data', onData)
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, end).toString('latin1'))
      if (status?.[1] !== '200') return fail(`refused ${authority}: ${status?.[1] ?? 'no status line'}`)
      socket.setTimeout(0)
      socket.removeAllListeners('error')
      const rest = received.subarray(end + 4)
      if (rest.length > 0) socket.unshift(rest)
      resolve(socket)
    }
  })
}
