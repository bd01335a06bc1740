import { KEY_SUBPROTOCOL_PREFIX } from '../../shared/browser-login'

export interface ServedOrigin {
  port: number
}

export type AccessDecision =
  | { allowed: true }
  | { allowed: false; status: 403; code: 'host_refused' | 'origin_refused'; reason: string }

/**
 * Host must name this loopback server: a DNS-rebinding page reaches 127.0.0.1 under its own
 * host name, and this check is what stops it. `localhost` is refused too: browsers resolve it to
 * ::1 as well (Chromium tries that first), and [::1]:PORT is free for any other local program,
 * which would then own the origin http://localhost:PORT. We only ever print 127.0.0.1.
 */
export function isAllowedHost(hostHeader: string | undefined, origin: ServedOrigin): boolean {
  return hostHeader === `127.0.0.1:${origin.port}`
}

export function isAllowedOrigin(originHeader: string | undefined, origin: ServedOrigin): boolean {
  return originHeader === `http://127.0.0.1:${origin.port}`
}

function hostRefused(origin: ServedOrigin) {
  return {
    allowed: false,
    status: 403,
    code: 'host_refused',
    reason: `unexpected Host header; open http://127.0.0.1:${origin.port}/ (localhost may reach another program on ::1)`,
  } as const
}

/** Pages and assets hold no secret: they only need a Host that names us. */
export function decidePageRequest(headers: { host?: string }, origin: ServedOrigin): AccessDecision {
  return isAllowedHost(headers.host, origin) ? { allowed: true } : hostRefused(origin)
}

/**
 * The login exchange and the RPC socket: right Host and our Origin (browsers always send one on
 * a POST and a WebSocket), so a page served from any other origin, another port included, is
 * refused before any code or key is looked at.
 */
export function decideCredentialedRequest(
  headers: { host?: string; origin?: string },
  origin: ServedOrigin,
): AccessDecision {
  if (!isAllowedHost(headers.host, origin)) return hostRefused(origin)
  if (!isAllowedOrigin(headers.origin, origin)) {
    return {
      allowed: false,
      status: 403,
      code: 'origin_refused',
      reason: `Origin ${headers.origin ?? '(none)'} is not this server`,
    }
  }
  return { allowed: true }
}

/** The session key offered as `shellgate.key.<key>` in Sec-WebSocket-Protocol; null if none or several. */
export function presentedSessionKey(protocolHeader: string | undefined): string | null {
  const keys = (protocolHeader ?? '')
    .split(',')
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol.startsWith(KEY_SUBPROTOCOL_PREFIX))
  return keys.length === 1 && keys[0] ? keys[0].slice(KEY_SUBPROTOCOL_PREFIX.length) : null
}
