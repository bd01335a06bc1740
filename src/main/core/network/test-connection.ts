import { createHttpClient } from './http-client'
import type { HostResolver } from './host-resolver'
import type { NetworkConfig } from './network-config'
import { HttpRequestError, NetworkConfigError } from './network-error'
import type { EgressPolicy, UrlRoute } from './url-route'

/** The outcome the Settings "Test connection" button and `shellgate net fetch` report. */
export type ConnectionReport =
  | {
      status: 'ok'
      url: string
      httpStatus: number
      bytes: number
      traceId: string
      route: UrlRoute
      redirects: string[]
    }
  | { status: 'rejected' | 'error'; url: string; code: string; reason: string; traceId: string | null }

export interface TestConnectionInput {
  url: string
  config: NetworkConfig
  egressPolicy?: EgressPolicy
  followRedirects?: boolean
  sealedFallback?: boolean
  resolver?: HostResolver
  signal?: AbortSignal
}

/**
 * One GET through the app's HTTP client, never throwing for network outcomes: any HTTP status is
 * "ok" (the network works); refusals by policy are "rejected"; everything else is "error" with a
 * reason. Invalid URLs and settings still throw NetworkConfigError, because that is bad input.
 */
export async function testConnection(input: TestConnectionInput): Promise<ConnectionReport> {
  const client = createHttpClient({
    config: input.config,
    sealedFallback: input.sealedFallback,
    resolver: input.resolver,
  })
  try {
    const response = await client.request({
      url: input.url,
      egressPolicy: input.egressPolicy,
      followRedirects: input.followRedirects,
      signal: input.signal,
    })
    return {
      status: 'ok',
      url: response.url,
      httpStatus: response.status,
      bytes: response.body.byteLength,
      traceId: response.traceId,
      route: response.route,
      redirects: response.redirects,
    }
  } catch (error) {
    if (error instanceof NetworkConfigError) throw error
    if (error instanceof HttpRequestError) {
      const status = error.code === 'rejected' ? 'rejected' : 'error'
      return { status, url: input.url, code: error.code, reason: error.message, traceId: error.traceId }
    }
    throw error
  }
}
