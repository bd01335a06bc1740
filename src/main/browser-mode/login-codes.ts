import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Long enough to copy an address into another browser; short enough that an old one is dead. */
export const LOGIN_CODE_TTL_MS = 10 * 60_000
/**
 * Codes waiting to be used. Minting past this forgets the oldest, so `shellgate ui` always works
 * and memory stays bounded however often it is run.
 */
export const MAX_OUTSTANDING_LOGIN_CODES = 16
/** Spent codes are remembered (until they would have expired) only to say "already used". */
const MAX_REMEMBERED_SPENT_CODES = 64

export type RedeemResult = { ok: true } | { ok: false; code: 'code_spent' | 'code_expired' | 'code_unknown' }

export interface LoginCodes {
  /** 256 random bits, base64url: the one-time code a login address carries in its fragment. */
  mint(): string
  /** Spends the code: true once, never again. */
  redeem(candidate: unknown): RedeemResult
}

interface CodeRecord {
  digest: Buffer
  expiresAt: number
  spent: boolean
}

export function createLoginCodes(
  options: { ttlMs?: number; maxOutstanding?: number; now?: () => number } = {},
): LoginCodes {
  const ttlMs = options.ttlMs ?? LOGIN_CODE_TTL_MS
  const maxOutstanding = options.maxOutstanding ?? MAX_OUTSTANDING_LOGIN_CODES
  const now = options.now ?? Date.now
  let records: CodeRecord[] = []

  const prune = (at: number) => {
    records = records.filter((record) => record.expiresAt > at || !record.spent)
    const fresh = records.filter((record) => !record.spent)
    const spent = records.filter((record) => record.spent)
    // Oldest first in both lists: drop from the front.
    records = [...spent.slice(-MAX_REMEMBERED_SPENT_CODES), ...fresh.slice(-maxOutstanding)]
  }

  return {
    mint() {
      const code = randomBytes(32).toString('base64url')
      const at = now()
      records.push({ digest: digestOf(code), expiresAt: at + ttlMs, spent: false })
      prune(at)
      return code
    },
    redeem(candidate) {
      if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 128) {
        return { ok: false, code: 'code_unknown' }
      }
      const digest = digestOf(candidate)
      // Compare against every record, without stopping at the first match, in constant time.
      let match: CodeRecord | undefined
      for (const record of records) {
        if (timingSafeEqual(record.digest, digest) && !match) match = record
      }
      const at = now()
      if (!match) return { ok: false, code: 'code_unknown' }
      if (match.spent) return { ok: false, code: 'code_spent' }
      // Spent before the expiry check: an expired code is no more usable later than now.
      match.spent = true
      if (match.expiresAt <= at) return { ok: false, code: 'code_expired' }
      prune(at)
      return { ok: true }
    },
  }
}

/** Fixed-length digests make the comparison constant-time whatever length was presented. */
function digestOf(code: string): Buffer {
  return createHash('sha256').update(code, 'utf8').digest()
}
