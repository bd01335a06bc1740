import { randomUUID } from 'node:crypto'
import { createCaLoader } from './ca-certificate'
import { createDeadline, type Deadline, untilAborted } from './deadline'
import { sendWithFetch } from './fetch-transport'
import { type HopRequest, type HopResponse, REDIRECT_STATUSES } from './hop'
import { type HostResolver, systemResolver } from './host-resolver'
import type { NetworkConfig } from './network-config'
import { HttpRequestError, NetworkConfigError } from './network-error'
import { sendWithNode } from './node-transport'
import { resolveProxyRoute } from './proxy-route'
import { vetPublicDestination } from './public-egress-policy'
import { nextRedirectHop, type RedirectHop } from './redirect'
import { parseRequestUrl } from './request-url'
import { BodyTooLargeError, MAX_RESPONSE_BODY_BYTES } from './response-body'
import { describeProxyRoute, type EgressPolicy, publicRoute, type UrlRoute } from './url-route'

export const TRACE_ID_HEADER = 'x-shellgate-trace-id'
/** Only used when a caller turns redirects on; fetch allows 20, a settings probe needs far fewer. */
export const DEFAULT_MAX_REDIRECTS = 10

export interface HttpClientOptions {
  config: NetworkConfig
  /** Web-fetch kind clients only: fall back to the user's sealed shell proxies (seed 000). */
  sealedFallback?: boolean
  /** Used by the public egress policy; tests inject one so no real name is ever looked up. */
  resolver?: HostResolver
  /**
   * Replaces the transports. Only for tests of public-policy hops: a public server cannot exist
   * on a test machine, and no test may send traffic off it. Production code never passes this.
   */
  transports?: HopTransports
}

export interface HopTransports {
  node: typeof sendWithNode
  fetch: typeof sendWithFetch
}

export interface HttpRequestOptions {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  egressPolicy?: EgressPolicy
  /** Off by default (seed 000); when on, every hop is re-checked: URL, proxy route and policy. */
  followRedirects?: boolean
  maxRedirects?: number
  /** Defaults to config.timeoutMs; covers all hops, DNS and the body. */
  timeoutMs?: number
  maxBodyBytes?: number
  signal?: AbortSignal
}

export interface HttpResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** The URL that produced this response (differs from the request's after redirects). */
  url: string
  traceId: string
  /** Every URL followed, in order. */
  redirects: string[]
  /** How the last hop travelled. */
  route: UrlRoute
}

export interface HttpClient {
  /**
   * Rejects with NetworkConfigError (bad URL or setting, nothing sent) or HttpRequestError
   * (rejected by policy, timeout, body too large, network failure). A 4xx/5xx is a response.
   */
  request(options: HttpRequestOptions): Promise<HttpResponse>
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { config } = options
  const resolver = options.resolver ?? systemResolver
  const loadCa = createCaLoader(config.caCertFile)
  const transports = options.transports ?? { node: sendWithNode, fetch: sendWithFetch }

  async function sendHop(
    hop: HopRequest,
    policy: EgressPolicy,
    traceId: string,
  ): Promise<[HopResponse, UrlRoute]> {
    const ca = loadCa()
    if (policy === 'public') {
      const verdict = await untilAborted(vetPublicDestination(hop.url, resolver), hop.signal)
      if (!verdict.allowed)
        throw new HttpRequestError('rejected', `public egress policy: ${verdict.reason}`, traceId)
      return [await transports.node(hop, { proxyUrl: null, ca, pinned: verdict.destination }), publicRoute()]
    }
    const route = resolveProxyRoute(hop.url, config, { sealedFallback: options.sealedFallback })
    const response =
      route.proxyUrl || ca
        ? await transports.node(hop, { proxyUrl: route.proxyUrl, ca, pinned: null })
        : await transports.fetch(hop)
    return [response, describeProxyRoute(route)]
  }

  return {
    async request(request) {
      const traceId = randomUUID()
      let hop: RedirectHop = {
        url: parseRequestUrl(request.url),
        method: checkMethod(request.method ?? 'GET'),
        headers: { ...lowerCaseKeys(request.headers ?? {}), [TRACE_ID_HEADER]: traceId },
        body: request.body === undefined ? undefined : Buffer.from(request.body),
      }
      loadCa()
      const policy = request.egressPolicy ?? 'default'
      const maxRedirects = request.followRedirects ? (request.maxRedirects ?? DEFAULT_MAX_REDIRECTS) : 0
      if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0) {
        throw new NetworkConfigError('maxRedirects', `must be a whole number ≥ 0, got ${maxRedirects}`)
      }
      const maxBodyBytes = checkPositive('maxBodyBytes', request.maxBodyBytes) ?? MAX_RESPONSE_BODY_BYTES
      const deadline = createDeadline(
        checkPositive('timeoutMs', request.timeoutMs) ?? config.timeoutMs.value,
        request.signal,
      )
      const redirects: string[] = []
      try {
        for (;;) {
          const [response, route] = await sendHop(
            { ...hop, signal: deadline.signal, maxBodyBytes },
            policy,
            traceId,
          )
          const location = response.headers.location
          if (!request.followRedirects || !REDIRECT_STATUSES.has(response.status) || location === undefined) {
            return { ...response, url: hop.url.href, traceId, redirects, route }
          }
          if (redirects.length >= maxRedirects) {
            throw new HttpRequestError('too_many_redirects', `more than ${maxRedirects} redirects`, traceId)
          }
          hop = followable(hop, response.status, location, traceId)
          redirects.push(hop.url.href)
        }
      } catch (error) {
        throw toRequestError(error, deadline, traceId)
      } finally {
        deadline.clear()
      }
    },
  }
}

/** A redirect target is the server's choice, not the caller's input: refusing it is a policy rejection. */
function followable(hop: RedirectHop, status: number, location: string, traceId: string): RedirectHop {
  try {
    return nextRedirectHop(hop, status, location)
  } catch (error) {
    if (!(error instanceof NetworkConfigError)) throw error
    throw new HttpRequestError('rejected', `redirect refused: ${error.message}`, traceId)
  }
}

function toRequestError(error: unknown, deadline: Deadline, traceId: string): Error {
  if (error instanceof HttpRequestError || error instanceof NetworkConfigError) return error
  if (deadline.timedOut())
    return new HttpRequestError('timeout', (deadline.signal.reason as Error).message, traceId)
  if (deadline.signal.aborted) return new HttpRequestError('aborted', 'the request was cancelled', traceId)
  if (error instanceof BodyTooLargeError)
    return new HttpRequestError('body_too_large', error.message, traceId)
  return new HttpRequestError('network', describeNetworkError(error), traceId)
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  // fetch wraps the useful part (ECONNREFUSED 127.0.0.1:9) in `cause`.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}

/** RFC 9110 token; anything else would be rejected by Node mid-request or, worse, smuggled. */
function checkMethod(method: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method)) {
    throw new NetworkConfigError('method', `"${method}" is not an HTTP method`)
  }
  return method.toUpperCase()
}

function checkPositive(name: string, value: number | undefined): number | undefined {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new NetworkConfigError(name, `must be a whole number ≥ 1, got ${value}`)
  }
  return value
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
}
