import { describe, expect, it } from 'vitest'
import {
  createBrowserSessions,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
} from '../../../src/main/browser-mode/browser-sessions'
import { createSessionKeys } from '../../../src/main/browser-mode/session-keys'

function sessionsWithClock(options: { maxSessions?: number; absoluteMs?: number } = {}) {
  let now = 1_000_000
  const sessions = createBrowserSessions({ keys: createSessionKeys(), now: () => now, ...options })
  return { sessions, advance: (ms: number) => (now += ms) }
}

describe('browser-mode sessions (issue 19.4)', () => {
  it('names its lifetimes: 30 s away from the page, 12 hours in all', () => {
    expect(SESSION_IDLE_MS).toBe(30_000)
    expect(SESSION_ABSOLUTE_MS).toBe(12 * 60 * 60 * 1000)
  })

  it('one page at a time: a copy of the key opens nothing while the page holds its socket', () => {
    const { sessions } = sessionsWithClock()
    const key = sessions.issue()
    const page = sessions.admit(key, () => undefined)
    expect(page.ok).toBe(true)
    expect(sessions.admit(key, () => undefined)).toEqual({ ok: false, code: 'key_in_use' })
  })

  it('a reload within the idle time reconnects; after it, the key has expired', () => {
    const { sessions, advance } = sessionsWithClock()
    const key = sessions.issue()
    const first = sessions.admit(key, () => undefined)
    if (!first.ok) throw new Error('the page was refused')
    first.socket.closed(false)
    advance(SESSION_IDLE_MS - 1)
    const reloaded = sessions.admit(key, () => undefined)
    expect(reloaded.ok).toBe(true)
    if (reloaded.ok) reloaded.socket.closed(false)
    advance(SESSION_IDLE_MS)
    expect(sessions.admit(key, () => undefined)).toEqual({ ok: false, code: 'key_expired' })
  })

  it('a key that never opened a socket idles out from the login', () => {
    const { sessions, advance } = sessionsWithClock()
    const key = sessions.issue()
    advance(SESSION_IDLE_MS)
    expect(sessions.admit(key, () => undefined)).toEqual({ ok: false, code: 'key_expired' })
  })

  it('logging out ends the session at once', () => {
    const { sessions } = sessionsWithClock()
    const key = sessions.issue()
    const page = sessions.admit(key, () => undefined)
    if (!page.ok) throw new Error('the page was refused')
    page.socket.closed(true)
    expect(sessions.admit(key, () => undefined)).toEqual({ ok: false, code: 'key_expired' })
  })

  it('the absolute lifetime ends an open session and closes its socket', async () => {
    const { sessions } = sessionsWithClock({ absoluteMs: 50 })
    const key = sessions.issue()
    const ended = new Promise<string>((resolve) => {
      const page = sessions.admit(key, () => resolve('closed by the lifetime'))
      expect(page.ok).toBe(true)
    })
    expect(await ended).toBe('closed by the lifetime')
    expect(sessions.admit(key, () => undefined)).toEqual({ ok: false, code: 'key_expired' })
  })

  it('refuses a key it never issued as refused, not expired', () => {
    const { sessions } = sessionsWithClock()
    expect(sessions.admit(createSessionKeys().issue(), () => undefined)).toEqual({
      ok: false,
      code: 'key_refused',
    })
    expect(sessions.admit('garbage', () => undefined)).toEqual({ ok: false, code: 'key_refused' })
  })

  it('at its cap, forgets the login idle longest before one whose page is open', () => {
    const { sessions, advance } = sessionsWithClock({ maxSessions: 3 })
    const open = sessions.issue()
    expect(sessions.admit(open, () => undefined).ok).toBe(true)
    advance(1)
    const idleOld = sessions.issue()
    advance(1)
    const idleNew = sessions.issue()
    advance(1)
    sessions.issue()
    expect(sessions.admit(idleOld, () => undefined)).toEqual({ ok: false, code: 'key_expired' })
    expect(sessions.admit(idleNew, () => undefined).ok).toBe(true)
    expect(sessions.admit(open, () => undefined)).toEqual({ ok: false, code: 'key_in_use' })
  })
})
