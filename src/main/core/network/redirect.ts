import { NetworkConfigError } from './network-error'
import { parseRequestUrl } from './request-url'

export interface RedirectHop {
  url: URL
  method: string
  headers: Record<string, string>
  body: Buffer | undefined
}

/** Headers that carry the caller's identity and must not follow a redirect to another origin. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization']

/**
 * The next hop for a 3xx, with fetch's method rules (303, and 301/302 after POST, become a bodiless
 * GET). The Location is validated like any request URL; an unusable one is an Error, not a hop.
 */
export function nextRedirectHop(current: RedirectHop, status: number, location: string): RedirectHop {
  let url: URL
  try {
    url = parseRequestUrl(new URL(location, current.url), 'redirect Location')
  } catch (error) {
    if (error instanceof TypeError)
      throw new NetworkConfigError('redirect Location', `"${location}" is not a URL`)
    throw error
  }
  const becomesGet =
    status === 303
      ? current.method !== 'HEAD'
      : (status === 301 || status === 302) && current.method === 'POST'
  const headers = { ...current.headers }
  if (becomesGet) {
    delete headers['content-type']
    delete headers['content-length']
  }
  if (url.origin !== current.url.origin) {
    for (const name of ORIGIN_BOUND_HEADERS) delete headers[name]
  }
  return {
    url,
    method: becomesGet ? 'GET' : current.method,
    headers,
    body: becomesGet ? undefined : current.body,
  }
}
