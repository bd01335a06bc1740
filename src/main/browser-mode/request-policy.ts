import { presentedToken, tokenMatches } from './access-token'

export interface ServedOrigin {
  port: number
}

export type AccessDecision = { allowed: true } | { allowed: false; status: 401 | 403; reason: string }

/**
 * Host must name this loopback server: a DNS-rebinding page reaches 127.0.0.1 under its own
 * host name, and this check is what stops it.
 */
export function isAllowedHost(hostHeader: string | undefined, origin: ServedOrigin): boolean {
  return hostHeader === `127.0.0.1:${origin.port}` || hostHeader === `localhost:${origin.port}`
}

export function isAllowedOrigin(originHeader: string | undefined, origin: ServedOrigin): boolean {
  return (
    originHeader === `http://127.0.0.1:${origin.port}` || originHeader === `http://localhost:${origin.port}`
  )
}

/** The WebSocket upgrade: right host, our Origin (browsers always send one), and the run's token. */
export function decideUpgrade(
  headers: { host?: string; origin?: string; cookie?: string },
  url: URL,
  token: string,
  origin: ServedOrigin,
): AccessDecision {
  if (!isAllowedHost(headers.host, origin))
    return { allowed: false, status: 403, reason: 'unexpected Host header' }
  if (!isAllowedOrigin(headers.origin, origin)) {
    return { allowed: false, status: 403, reason: `Origin ${headers.origin ?? '(none)'} is not this server` }
  }
  if (!tokenMatches(token, presentedToken(url, headers.cookie, origin.port))) {
    return { allowed: false, status: 401, reason: 'missing or wrong token' }
  }
  return { allowed: true }
}

/** Page and asset requests: right host and the token (query on first load, cookie after). */
export function decidePageRequest(
  headers: { host?: string; cookie?: string },
  url: URL,
  token: string,
  origin: ServedOrigin,
): AccessDecision {
  if (!isAllowedHost(headers.host, origin))
    return { allowed: false, status: 403, reason: 'unexpected Host header' }
  if (!tokenMatches(token, presentedToken(url, headers.cookie, origin.port))) {
    return {
      allowed: false,
      status: 401,
      reason: 'missing or wrong token: open the URL printed by `shellgate serve`',
    }
  }
  return { allowed: true }
}
