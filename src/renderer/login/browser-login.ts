import {
  isLoginRefusalCode,
  LOGIN_CODE_PARAM,
  LOGIN_EXCHANGE_PATH,
  type LoginRefusalCode,
  SESSION_KEY_STORAGE_NAME,
} from '../../shared/browser-login'

export type LoginOutcome = { ok: true; key: string } | { ok: false; refusal: LoginRefusalCode }

/**
 * The browser pieces login touches (window.location, history, sessionStorage, fetch), typed
 * structurally and passed in so the steps read, and test, without a window.
 */
export interface LoginEnvironment {
  location: { hash: string; pathname: string; search: string }
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void }
  storage: KeyStorage
  fetch: (input: string, init: RequestInit) => Promise<Response>
}

interface KeyStorage {
  getItem(name: string): string | null
  setItem(name: string, value: string): void
  removeItem(name: string): void
}

/** The one-time code from `#code=…`, or null when the address carries none. */
export function loginCodeFromHash(hash: string): string | null {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get(LOGIN_CODE_PARAM)
  return code ? code : null
}

/**
 * A login address's code is taken out of the address bar before anything else runs (so it is not
 * in history, a bookmark or a screenshot), then traded once for a session key kept in
 * sessionStorage. A reload has no code and reuses the key.
 */
export async function logInFromAddress(env: LoginEnvironment): Promise<LoginOutcome> {
  const code = loginCodeFromHash(env.location.hash)
  if (code === null) {
    const key = env.storage.getItem(SESSION_KEY_STORAGE_NAME)
    return key ? { ok: true, key } : { ok: false, refusal: 'key_missing' }
  }
  env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}`)
  const outcome = await exchange(env.fetch, code)
  // A new address replaces whatever this tab held, also when it fails: an old key must not
  // silently keep a page logged in that was opened with someone else's spent address.
  if (outcome.ok) env.storage.setItem(SESSION_KEY_STORAGE_NAME, outcome.key)
  else env.storage.removeItem(SESSION_KEY_STORAGE_NAME)
  return outcome
}

/** After the socket refused the key, a reload must show the refusal again, not retry the dead key. */
export function forgetSessionKey(storage: Pick<KeyStorage, 'removeItem'>): void {
  storage.removeItem(SESSION_KEY_STORAGE_NAME)
}

async function exchange(fetchImpl: LoginEnvironment['fetch'], code: string): Promise<LoginOutcome> {
  let response: Response
  try {
    response = await fetchImpl(LOGIN_EXCHANGE_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code }),
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    })
  } catch {
    return { ok: false, refusal: 'server_unreachable' }
  }
  const body = (await response.json().catch(() => null)) as {
    key?: unknown
    error?: { code?: unknown }
  } | null
  if (response.ok && typeof body?.key === 'string') return { ok: true, key: body.key }
  const refusal = body?.error?.code
  return { ok: false, refusal: isLoginRefusalCode(refusal) ? refusal : 'invalid_input' }
}
