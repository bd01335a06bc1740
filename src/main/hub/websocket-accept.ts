/*
 * The WebSocket handshake check of the hub socket's client, in plain JavaScript: node:crypto's
 * SHA-1 would load it (and OpenSSL) on every hook call, about 6 ms (issue 20.6), for 60 bytes.
 */

/** RFC 6455 §1.3: the server proves it read our key with SHA-1(key + this GUID). */
const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
/** Sec-WebSocket-Accept for `key`: base64(SHA-1(key + GUID)). */
export function webSocketAccept(key: string): string {
  return sha1(Buffer.from(key + ACCEPT_GUID, 'latin1')).toString('base64')
}

/** FIPS 180-4 SHA-1, for the handshake check only (a short ASCII input; not a secret). */
export function sha1(message: Buffer): Buffer {
  const bitLength = message.length * 8
  const padded = Buffer.alloc((((message.length + 8) >> 6) + 1) * 64)
  message.copy(padded)
  padded[message.length] = 0x80
  // Inputs here are far below 2^32 bits: the high word of the length stays zero.
  padded.writeUInt32BE(bitLength >>> 0, padded.length - 4)
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]
  const w = new Uint32Array(80)
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = padded.readUInt32BE(block + i * 4)
    for (let i = 16; i < 80; i++)
      w[i] = rotl(
        (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number),
        1,
      )
    let [a, b, c, d, e] = h as [number, number, number, number, number]
    for (let i = 0; i < 80; i++) {
      const [f, k] =
        i < 20
          ? [(b & c) | (~b & d), 0x5a827999]
          : i < 40
            ? [b ^ c ^ d, 0x6ed9eba1]
            : i < 60
              ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc]
              : [b ^ c ^ d, 0xca62c1d6]
      const next = (rotl(a, 5) + f + e + k + (w[i] as number)) >>> 0
      e = d
      d = c
      c = rotl(b, 30)
      b = a
      a = next
    }
    h[0] = ((h[0] as number) + a) >>> 0
    h[1] = ((h[1] as number) + b) >>> 0
    h[2] = ((h[2] as number) + c) >>> 0
    h[3] = ((h[3] as number) + d) >>> 0
    h[4] = ((h[4] as number) + e) >>> 0
  }
  const digest = Buffer.alloc(20)
  for (const [i, word] of h.entries()) digest.writeUInt32BE(word, i * 4)
  return digest
}

function rotl(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0
}
