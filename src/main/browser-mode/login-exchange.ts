import type { IncomingMessage, ServerResponse } from 'node:http'
import { LOGIN_REFUSAL_MESSAGES, type LoginRefusalCode } from '../../shared/browser-login'
import { SECURITY_HEADERS } from '../security/content-security-policy'
import type { LoginCodes } from './login-codes'
import { decideCredentialedRequest, type ServedOrigin } from './request-policy'
import type { BrowserSessions } from './browser-sessions'

/** `{"code":"<43 chars>"}` is about 55 bytes; anything much larger is not a login. */
const MAX_EXCHANGE_BODY_BYTES = 1024

const STATUS_OF: Readonly<Record<LoginRefusalCode, number>> = {
  code_spent: 410,
  code_expired: 410,
  code_unknown: 401,
  key_missing: 401,
  key_refused: 401,
  key_expired: 401,
  key_in_use: 409,
  logged_out: 401,
  origin_refused: 403,
  host_refused: 403,
  invalid_input: 400,
  server_unreachable: 503,
}

/**
 * POST {code} → {key}, once per code. No Access-Control-* header is ever sent, so a page on any
 * other origin cannot read the answer, and its Origin is refused before the code is looked at.
 * Nothing here logs or echoes the code.
 */
export async function exchangeLoginCode(
  request: IncomingMessage,
  response: ServerResponse,
  deps: { codes: LoginCodes; sessions: BrowserSessions; origin: ServedOrigin },
): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { Allow: 'POST', ...SECURITY_HEADERS })
    response.end()
    return
  }
  const decision = decideCredentialedRequest(request.headers, deps.origin)
  if (!decision.allowed) return refuse(response, decision.code)
  if (!/^application\/json(;|$)/i.test(request.headers['content-type'] ?? '')) {
    return refuse(response, 'invalid_input', 'the body must be application/json')
  }
  const body = await readBoundedBody(request, MAX_EXCHANGE_BODY_BYTES)
  if (body === null) return refuse(response, 'invalid_input', 'the body is too large')
  let code: unknown
  try {
    code = (JSON.parse(body) as { code?: unknown } | null)?.code
  } catch {
    return refuse(response, 'invalid_input', 'the body is not JSON')
  }
  if (typeof code !== 'string') return refuse(response, 'invalid_input', 'the body has no "code" string')
  const redeemed = deps.codes.redeem(code)
  if (!redeemed.ok) return refuse(response, redeemed.code)
  sendJson(response, 200, { key: deps.sessions.issue() })
}

function refuse(response: ServerResponse, code: LoginRefusalCode, detail?: string): void {
  const message = detail ? `${detail}. ${LOGIN_REFUSAL_MESSAGES[code]}` : LOGIN_REFUSAL_MESSAGES[code]
  sendJson(response, STATUS_OF[code], { error: { code, message } })
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...SECURITY_HEADERS,
  })
  response.end(body)
}

/** The body as text, or null once it passes `limit` bytes (then the rest is not read). */
function readBoundedBody(request: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        request.removeAllListeners('data')
        request.resume()
        resolve(null)
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}
