import type { SessionKeys } from './session-keys'

/**
 * issue 19.4: a browser-mode login is a session with lifetimes, not a key good until the restart.
 * - Idle: a key stays usable for SESSION_IDLE_MS after the page's socket closed (a reload
 *   reconnects within that); after it, or right after the page never connected at all, it is gone.
 * - Absolute: SESSION_ABSOLUTE_MS after the login, the session ends, its open socket included.
 * - One page at a time: while the page that logged in holds its socket, the key opens no other
 *   one, so a copy of the key (Chromium keeps sessionStorage on disk) is refused while the page
 *   is there, and dead soon after it left.
 * - Logout: the page closes its socket with LOGOUT_CLOSE_CODE and the session ends at once.
 */
export const SESSION_IDLE_MS = 30_000
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000
/** Logins are minted by the person one at a time; far more than a person opens, bounded for memory. */
export const MAX_BROWSER_SESSIONS = 64

export type KeyRefusal = 'key_refused' | 'key_expired' | 'key_in_use'

export interface AdmittedSocket {
  /** The socket closed; a logout ends the session now, any other close starts the idle clock. */
  closed(loggedOut: boolean): void
}

export interface BrowserSessions {
  /** A key for the page that just traded its login code. */
  issue(): string
  /**
   * Whether a new socket may open with this key. `end` is called if the session ends while the
   * socket is open (its absolute lifetime, or a later logout), so the caller can close it.
   */
  admit(key: string, end: () => void): { ok: true; socket: AdmittedSocket } | { ok: false; code: KeyRefusal }
  /** Forgets every session without closing their sockets: the server is closing, and its own close drops them as a restart, not an expiry. */
  close(): void
}

interface Session {
  issuedAt: number
  /** When the last socket closed (or the login itself, before the first socket). */
  idleSince: number | null
  open: (() => void) | null
  absoluteTimer: NodeJS.Timeout
}

export interface BrowserSessionOptions {
  keys: SessionKeys
  now?: () => number
  idleMs?: number
  absoluteMs?: number
  maxSessions?: number
}

export function createBrowserSessions(options: BrowserSessionOptions): BrowserSessions {
  const now = options.now ?? Date.now
  const idleMs = options.idleMs ?? SESSION_IDLE_MS
  const absoluteMs = options.absoluteMs ?? SESSION_ABSOLUTE_MS
  const maxSessions = options.maxSessions ?? MAX_BROWSER_SESSIONS
  const sessions = new Map<string, Session>()

  const end = (key: string) => {
    const session = sessions.get(key)
    if (!session) return
    sessions.delete(key)
    clearTimeout(session.absoluteTimer)
    session.open?.()
  }
  const expired = (session: Session) =>
    now() - session.issuedAt >= absoluteMs ||
    (session.open === null && session.idleSince !== null && now() - session.idleSince >= idleMs)
  const sweep = () => {
    for (const [key, session] of sessions) if (expired(session)) end(key)
  }
  /** Full: the session idle longest goes first; only if every one has a page, the oldest login. */
  const makeRoom = () => {
    if (sessions.size < maxSessions) return
    const idle = [...sessions].filter(([, session]) => session.open === null)
    const pool = idle.length > 0 ? idle : [...sessions]
    pool.sort(([, a], [, b]) => (a.idleSince ?? a.issuedAt) - (b.idleSince ?? b.issuedAt))
    const [oldest] = pool[0] ?? []
    if (oldest) end(oldest)
  }

  return {
    issue() {
      sweep()
      makeRoom()
      const key = options.keys.issue()
      const absoluteTimer = setTimeout(() => end(key), absoluteMs)
      absoluteTimer.unref()
      sessions.set(key, { issuedAt: now(), idleSince: now(), open: null, absoluteTimer })
      return key
    },
    admit(key, onEnd) {
      // A key we never issued says so; one we issued whose session is gone has expired.
      if (!options.keys.verify(key)) return { ok: false, code: 'key_refused' }
      const session = sessions.get(key)
      if (!session || expired(session)) {
        end(key)
        return { ok: false, code: 'key_expired' }
      }
      if (session.open) return { ok: false, code: 'key_in_use' }
      session.open = onEnd
      session.idleSince = null
      let closed = false
      return {
        ok: true,
        socket: {
          closed(loggedOut) {
            if (closed) return
            closed = true
            if (sessions.get(key) !== session) return
            session.open = null
            if (loggedOut) end(key)
            else session.idleSince = now()
          },
        },
      }
    },
    close() {
      for (const session of sessions.values()) clearTimeout(session.absoluteTimer)
      sessions.clear()
    },
  }
}
