import { createHash, randomBytes } from 'node:crypto'

/**
 * How long a hook's rewritten command may take to start. The client runs it right after the hook
 * answers (milliseconds); two minutes leave room for a client that shows its own confirmation
 * first, and no more: a ticket nobody used says so in the audit log.
 */
export const TICKET_LIFETIME_MS = 120_000
/** Outstanding tickets at once; the oldest is dropped first (a client that never runs them). */
export const MAX_OPEN_TICKETS = 1_024
/** 256 random bits: unguessable, and the same strength as the browser login codes. */
const TICKET_BYTES = 32

/** What a ticket runs: exactly what the hook decided, where and for whom it decided it. */
export interface TicketGrant {
  sessionId: string
  /** The call in the session's history that the decision started and the run continues. */
  callId: string
  command: string
  /** Where it was decided, and so where it runs. */
  cwd: string
  description?: string
  /** The client's own timeout for its shell tool, when it gave one. */
  timeoutMs?: number
  /** Who allowed it: the person (user_once, user_always…) or the automatic decision (read_only, rule, mode). */
  decidedBy: string
  approvedBy: string | null
  /** The rule a person saved on the card, when they did. */
  rule: { rule: string; source: string } | null
  /** The person chose "Allow once, unsandboxed" on the card. */
  unsandboxedByPerson: boolean
}

export type TicketRedemption =
  | { ok: true; grant: TicketGrant }
  | { ok: false; code: 'ticket_used' | 'ticket_expired' | 'ticket_unknown'; message: string }

export interface HookTickets {
  /** A new one-time ticket for this grant. */
  issue(grant: TicketGrant): string
  /** The grant, once: a second use, a late one or a ticket never issued is refused with its reason. */
  redeem(ticket: string): TicketRedemption
  /** Tickets that expired unused since the last call, for the audit log (the agent never ran them). */
  takeExpired(): TicketGrant[]
}

interface Entry {
  grant: TicketGrant
  expiresAt: number
  used: boolean
}

/**
 * One-time tickets, in the hub's memory only: a restart forgets them all, no file or log holds
 * one. Keyed by the ticket's SHA-256, so the table never holds a usable ticket either. A used
 * ticket stays known until it would have expired, so its replay is named as one.
 */
export function createHookTickets(now: () => number = Date.now): HookTickets {
  const entries = new Map<string, Entry>()
  const expired: TicketGrant[] = []
  const keyOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url')
  const sweep = () => {
    const time = now()
    for (const [key, entry] of entries) {
      if (entry.expiresAt > time) continue
      entries.delete(key)
      if (!entry.used) expired.push(entry.grant)
    }
  }
  return {
    issue(grant) {
      sweep()
      while (entries.size >= MAX_OPEN_TICKETS) {
        const [oldest] = entries
        if (!oldest) break
        entries.delete(oldest[0])
        if (!oldest[1].used) expired.push(oldest[1].grant)
      }
      const ticket = `sgt_${randomBytes(TICKET_BYTES).toString('base64url')}`
      entries.set(keyOf(ticket), { grant, expiresAt: now() + TICKET_LIFETIME_MS, used: false })
      return ticket
    },
    redeem(ticket) {
      const entry = entries.get(keyOf(ticket))
      if (entry && entry.expiresAt <= now()) {
        sweep()
        return {
          ok: false,
          code: 'ticket_expired',
          message: `this Shellgate ticket expired (${TICKET_LIFETIME_MS / 1000} s after the hook allowed it); nothing ran. Run the command again.`,
        }
      }
      sweep()
      if (!entry)
        return {
          ok: false,
          code: 'ticket_unknown',
          message:
            'this Shellgate ticket is not one this Shellgate issued (or it restarted since); nothing ran. Run the command again.',
        }
      if (entry.used)
        return {
          ok: false,
          code: 'ticket_used',
          message: 'this Shellgate ticket was already used: each runs its command once; nothing ran.',
        }
      entry.used = true
      return { ok: true, grant: entry.grant }
    },
    takeExpired() {
      sweep()
      return expired.splice(0)
    },
  }
}
