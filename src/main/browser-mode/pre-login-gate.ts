import type { Socket } from 'node:net'

/** TCP connections that have not presented a valid key (page loads, the exchange, idle keep-alives). */
export const MAX_PRE_LOGIN_CONNECTIONS = 64
/** A browser needs milliseconds on loopback; anything still unauthenticated after this is dropped. */
export const PRE_LOGIN_DEADLINE_MS = 5_000

export interface PreLoginGate {
  /** Every new TCP connection starts here, on a deadline. */
  admit(socket: Socket): void
  /** The connection presented a valid key: it leaves the pool and its deadline. */
  authenticated(socket: Socket): void
  size(): number
  close(): void
}

/**
 * At the cap the OLDEST unauthenticated connection is dropped, never the newest: a flood of idle
 * sockets then only ever delays the person's own page, it cannot lock the person out.
 */
export function createPreLoginGate(options: { max?: number; deadlineMs?: number } = {}): PreLoginGate {
  const max = options.max ?? MAX_PRE_LOGIN_CONNECTIONS
  const deadlineMs = options.deadlineMs ?? PRE_LOGIN_DEADLINE_MS
  // A Map iterates in insertion order, so its first entry is the oldest connection.
  const pending = new Map<Socket, NodeJS.Timeout>()

  const release = (socket: Socket) => {
    const timer = pending.get(socket)
    if (timer === undefined) return
    clearTimeout(timer)
    pending.delete(socket)
  }

  return {
    admit(socket) {
      while (pending.size >= max) {
        const oldest = pending.keys().next().value as Socket
        release(oldest)
        oldest.destroy()
      }
      const timer = setTimeout(() => {
        release(socket)
        socket.destroy()
      }, deadlineMs)
      timer.unref()
      pending.set(socket, timer)
      socket.once('close', () => release(socket))
    },
    authenticated(socket) {
      release(socket)
    },
    size() {
      return pending.size
    },
    close() {
      for (const socket of [...pending.keys()]) release(socket)
    },
  }
}
