import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export interface SessionKeys {
  /** A fresh key for one page that has just traded its login code. */
  issue(): string
  /** True only for a key this hub process issued: another hub or an earlier run has another secret. */
  verify(candidate: unknown): boolean
}

const NONCE_BYTES = 16
const KEY_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/

/**
 * A key is a random nonce and its HMAC under a secret that lives only in this process's memory,
 * so checking one needs no table that grows with every login, and a restart revokes them all.
 */
export function createSessionKeys(secret: Buffer = randomBytes(32)): SessionKeys {
  const macOf = (nonce: string) => createHmac('sha256', secret).update(nonce).digest()
  return {
    issue() {
      const nonce = randomBytes(NONCE_BYTES).toString('base64url')
      return `${nonce}.${macOf(nonce).toString('base64url')}`
    },
    verify(candidate) {
      if (typeof candidate !== 'string') return false
      const parts = KEY_PATTERN.exec(candidate)
      if (!parts?.[1] || !parts[2]) return false
      // Compared as text, not decoded: the last base64 character carries two unused bits, so a
      // decoded comparison would accept four spellings of one key.
      const presented = Buffer.from(parts[2])
      const expected = Buffer.from(macOf(parts[1]).toString('base64url'))
      return presented.length === expected.length && timingSafeEqual(presented, expected)
    },
  }
}
