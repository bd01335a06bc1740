import { describe, expect, it } from 'vitest'
import { createSessionKeys } from '../../../src/main/browser-mode/session-keys'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

describe('browser-mode session keys', () => {
  it('accepts exactly the key issued, in its one spelling', () => {
    const keys = createSessionKeys()
    for (let i = 0; i < 64; i++) {
      const key = keys.issue()
      expect(keys.verify(key)).toBe(true)
      // The MAC's last character carries two unused bits: its other three spellings decode to the
      // same bytes, and each is refused.
      const last = ALPHABET.indexOf(key.at(-1)!)
      for (const low of [0, 1, 2, 3]) {
        const variant = ALPHABET[(last & ~3) | low]!
        if (variant === key.at(-1)) continue
        expect(keys.verify(`${key.slice(0, -1)}${variant}`), variant).toBe(false)
      }
    }
  })

  it('refuses another process secret, non-strings and malformed keys', () => {
    const keys = createSessionKeys()
    const other = createSessionKeys().issue()
    expect(keys.verify(other)).toBe(false)
    for (const bad of [null, 42, '', 'a.b', `${keys.issue()}x`, keys.issue().replace('.', '-')])
      expect(keys.verify(bad)).toBe(false)
  })
})
