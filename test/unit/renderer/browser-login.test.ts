import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_KEY_STORAGE_NAME } from '../../../src/shared/browser-login'
import {
  type LoginEnvironment,
  logInFromAddress,
  loginCodeFromHash,
} from '../../../src/renderer/login/browser-login'
import { type RunningTestServer, startTestServer } from '../transports/harness'

/**
 * The page's login steps against a real server. Node has no window, so the address bar, history
 * and sessionStorage are small stand-ins that record what the page did to them, in order.
 */
function pageAt(running: RunningTestServer, address: string, stored: Map<string, string>) {
  const url = new URL(address)
  const events: string[] = []
  const env: LoginEnvironment = {
    location: { hash: url.hash, pathname: url.pathname, search: url.search },
    history: {
      state: null,
      replaceState: (_state, _unused, next) => {
        events.push(`replaceState ${String(next)}`)
      },
    },
    storage: {
      getItem: (name) => stored.get(name) ?? null,
      setItem: (name, value) => void stored.set(name, value),
      removeItem: (name) => void stored.delete(name),
    },
    fetch: (input, init) => {
      events.push(`fetch ${String(input)}`)
      const headers = { ...(init?.headers as Record<string, string>), origin: running.server.origin }
      return fetch(new URL(String(input), running.server.origin), { ...init, headers })
    },
  }
  return { env, events }
}

describe('browser-mode page login', () => {
  let running: RunningTestServer
  beforeAll(async () => {
    running = await startTestServer()
  })
  afterAll(() => running.dispose())

  it('reads only the code parameter of the fragment', () => {
    expect(loginCodeFromHash('#code=abc')).toBe('abc')
    expect(loginCodeFromHash('#/tasks')).toBeNull()
    expect(loginCodeFromHash('')).toBeNull()
    expect(loginCodeFromHash('#code=')).toBeNull()
  })

  it('removes the code from the address before trading it, keeps the key, and reuses it on reload', async () => {
    const stored = new Map<string, string>()
    const address = running.server.mintLoginUrl()
    const first = pageAt(running, address, stored)
    const outcome = await logInFromAddress(first.env)
    expect(outcome.ok).toBe(true)
    expect(first.events).toEqual(['replaceState /', 'fetch /auth/exchange'])
    expect(stored.get(SESSION_KEY_STORAGE_NAME)).toBe(outcome.ok ? outcome.key : 'none')

    const reload = pageAt(running, `${running.server.origin}/`, stored)
    expect(await logInFromAddress(reload.env)).toEqual(outcome)
    expect(reload.events).toEqual([])

    // The same address in a new tab: refused as spent, and that tab holds no key.
    const again = new Map<string, string>([[SESSION_KEY_STORAGE_NAME, 'an older key']])
    expect(await logInFromAddress(pageAt(running, address, again).env)).toEqual({
      ok: false,
      refusal: 'code_spent',
    })
    expect(again.size).toBe(0)
  })

  it('says key_missing with no address and no key, and server_unreachable when the server is gone', async () => {
    expect(await logInFromAddress(pageAt(running, `${running.server.origin}/`, new Map()).env)).toEqual({
      ok: false,
      refusal: 'key_missing',
    })
    const gone = await startTestServer()
    const address = gone.server.mintLoginUrl()
    const page = pageAt(gone, address, new Map())
    await gone.dispose()
    expect(await logInFromAddress(page.env)).toEqual({ ok: false, refusal: 'server_unreachable' })
  })
})
