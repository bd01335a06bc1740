import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { randomSource } from '../../../src/main/hub/kernel-random'
import { sha1, webSocketAccept } from '../../../src/main/hub/websocket-accept'

/**
 * The hub socket client's SHA-1 and randomness without node:crypto (issue 20.6): the handshake
 * check must compute exactly what the server (ws, with OpenSSL) computes, or every connection is
 * refused as foreign, and the masks must be fresh kernel bytes.
 */
describe('the WebSocket key helpers of the hub client', () => {
  it('computes SHA-1 as OpenSSL does, across block boundaries', () => {
    // 55/56 and 63/64/65 bytes: where the length field moves to a block of its own.
    const lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]
    for (const length of lengths) {
      const message = Buffer.from(Array.from({ length }, (_, i) => (i * 131 + length) & 0xff))
      expect(sha1(message).toString('hex'), `length ${length}`).toBe(
        createHash('sha1').update(message).digest('hex'),
      )
    }
    expect(sha1(Buffer.from('abc')).toString('hex')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d')
  })

  it('gives the accept value of RFC 6455 §1.3 and of random keys', () => {
    expect(webSocketAccept('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
    const random = randomSource()
    for (let i = 0; i < 50; i++) {
      const key = random(16).toString('base64')
      expect(webSocketAccept(key)).toBe(
        createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64'),
      )
    }
  })

  it('hands out fresh random bytes, past its pool, and on Windows from node:crypto', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const random = randomSource(platform)
      const seen = new Set<string>()
      // 300 × 4 bytes: more than one 256-byte pool read.
      for (let i = 0; i < 300; i++) {
        const bytes = random(4)
        expect(bytes).toHaveLength(4)
        seen.add(bytes.toString('hex'))
      }
      // Repeats among 300 draws of 32 bits are all but impossible for random bytes.
      expect(seen.size, platform).toBeGreaterThan(295)
      expect(random(1000)).toHaveLength(1000)
    }
  })
})
