/**
 * Browser-mode login, shared by the server and the page so the two cannot drift: the one-time
 * code in the address fragment, the exchange endpoint that trades it for a session key, and how
 * the RPC socket presents that key and says why it refused one.
 */

/** Where the page trades `{code}` for `{key}`: POST, JSON, our Origin and Host, no CORS. */
export const LOGIN_EXCHANGE_PATH = '/auth/exchange'

/** The fragment parameter of a login address: `http://127.0.0.1:PORT/#code=…`. */
export const LOGIN_CODE_PARAM = 'code'

/** sessionStorage is per origin (port included) and per tab: another port never sees the key. */
export const SESSION_KEY_STORAGE_NAME = 'shellgate.sessionKey'

/**
 * The key rides in Sec-WebSocket-Protocol as a second offered subprotocol, never in the URL
 * (URLs land in logs and history). The server only ever selects RPC_SUBPROTOCOL, so the key is
 * not echoed back.
 */
export const RPC_SUBPROTOCOL = 'shellgate.rpc.v1'
export const KEY_SUBPROTOCOL_PREFIX = 'shellgate.key.'

export function rpcSubprotocols(key: string): string[] {
  return [RPC_SUBPROTOCOL, `${KEY_SUBPROTOCOL_PREFIX}${key}`]
}

export type LoginRefusalCode =
  | 'code_spent'
  | 'code_expired'
  | 'code_unknown'
  | 'key_missing'
  | 'key_refused'
  | 'key_expired'
  | 'key_in_use'
  | 'logged_out'
  | 'origin_refused'
  | 'host_refused'
  | 'invalid_input'
  | 'server_unreachable'

const FRESH_ADDRESS = 'Run `shellgate ui` for a fresh address.'

/** What the page tells the person, per refusal. The server sends only the code. */
export const LOGIN_REFUSAL_MESSAGES: Readonly<Record<LoginRefusalCode, string>> = {
  code_spent: `This address was already used. If you did not open it, someone else did. ${FRESH_ADDRESS}`,
  code_expired: `This address has expired (addresses are good for 10 minutes). ${FRESH_ADDRESS}`,
  code_unknown: `This address is not from this Shellgate (it was restarted, or the address was mistyped). ${FRESH_ADDRESS}`,
  key_missing: `This page has not logged in. Open the address printed by \`shellgate serve\`. ${FRESH_ADDRESS}`,
  key_refused: `This page's key is not from this Shellgate (it was restarted, or the key belongs to another one). ${FRESH_ADDRESS}`,
  key_expired: `This login has ended: you logged out, the page was away for over 30 seconds, or it began over 12 hours ago. ${FRESH_ADDRESS}`,
  key_in_use: `This login is in use by another page or program: a login serves one page at a time. If that is not yours, someone has this page's key. ${FRESH_ADDRESS}`,
  logged_out: `You logged out of this page; its key opens nothing any more. ${FRESH_ADDRESS}`,
  origin_refused: 'This request did not come from a Shellgate page.',
  host_refused: 'This request did not name this Shellgate server as its host.',
  invalid_input: `The login request was malformed. ${FRESH_ADDRESS}`,
  server_unreachable: 'Shellgate did not answer the login. Is `shellgate serve` still running?',
}

/**
 * Close codes (4000–4999 are the application's) for a socket that was opened from our own
 * origin but presented no key or a key this hub did not issue. A browser hides a refused
 * handshake's HTTP status from the page, so only a close after the handshake can tell it why.
 */
export const RPC_CLOSE_CODES = {
  key_missing: 4401,
  key_refused: 4403,
  key_in_use: 4409,
  key_expired: 4410,
} as const satisfies Partial<Record<LoginRefusalCode, number>>

/**
 * The page closes its socket with this code to log out: the server ends the session at once, so
 * the key in this tab's storage (and any copy of it) opens nothing any more.
 */
export const LOGOUT_CLOSE_CODE = 4000

export function refusalForCloseCode(closeCode: number): LoginRefusalCode | null {
  for (const [name, value] of Object.entries(RPC_CLOSE_CODES)) {
    if (value === closeCode) return name as LoginRefusalCode
  }
  return null
}

export function isLoginRefusalCode(value: unknown): value is LoginRefusalCode {
  return typeof value === 'string' && Object.hasOwn(LOGIN_REFUSAL_MESSAGES, value)
}
