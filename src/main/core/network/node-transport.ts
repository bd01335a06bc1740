import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { ProxyAgent } from 'proxy-agent'
import type { HopRequest, HopResponse } from './hop'
import type { VettedDestination } from './public-egress-policy'
import { checkDeclaredLength, readCappedBody } from './response-body'

export interface NodeHopOptions {
  /** Full proxy URL (credentials included, proxy-agent sends them as Proxy-Authorization). */
  proxyUrl: string | null
  /** Node's roots plus the custom CA, or undefined for Node's defaults. */
  ca: string[] | undefined
  /** Public policy: connect to this address whatever DNS would say now. */
  pinned: VettedDestination | null
}

/**
 * Seed 000's proxy-aware path: node http/https with proxy-agent. A fresh agent per hop and no
 * keep-alive, so nothing outlives the request and a pinned address is never reused for another host.
 */
export function sendWithNode(hop: HopRequest, options: NodeHopOptions): Promise<HopResponse> {
  const client = hop.url.protocol === 'https:' ? https : http
  const agent = options.proxyUrl
    ? new ProxyAgent({ getProxyForUrl: () => options.proxyUrl!, ca: options.ca, keepAlive: false })
    : undefined
  return new Promise<HopResponse>((resolve, reject) => {
    const request = client.request(
      hop.url,
      {
        method: hop.method,
        headers: hop.headers,
        signal: hop.signal,
        agent: agent ?? false,
        ...(options.ca ? { ca: options.ca } : {}),
        ...(options.pinned ? { lookup: pinnedLookup(options.pinned) } : {}),
      },
      (response) => {
        try {
          checkDeclaredLength(response.headers['content-length'], hop.maxBodyBytes)
        } catch (error) {
          response.destroy()
          reject(error)
          return
        }
        readCappedBody(response, hop.maxBodyBytes).then(
          (body) =>
            resolve({ status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), body }),
          (error: unknown) => {
            response.destroy()
            reject(error)
          },
        )
      },
    )
    request.on('error', reject)
    request.end(hop.body)
  }).finally(() => agent?.destroy())
}

/** A lookup that ignores DNS and answers with the address the egress policy already vetted. */
export function pinnedLookup(destination: VettedDestination): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      ;(callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(
        null,
        [{ address: destination.address, family: destination.family }],
      )
    } else {
      callback(null, destination.address, destination.family)
    }
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    flat[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value
  }
  return flat
}
