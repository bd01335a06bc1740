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

/**
 * FIPS 180-4 SHA-1, for the handshake check only (a short ASCII input; not a secret). Written for
 * a cold start: it runs once per process in V8's interpreter, so plain locals, no per-round arrays.
 */
export function sha1(message: Buffer): Buffer {
  const padded = Buffer.alloc((((message.length + 8) >> 6) + 1) * 64)
  message.copy(padded)
  padded[message.length] = 0x80
  // Inputs here are far below 2^32 bits: the high word of the length stays zero.
  padded.writeUInt32BE((message.length * 8) >>> 0, padded.length - 4)
  let h0 = 0x67452301
  let h1 = 0xefcdab89
  let h2 = 0x98badcfe
  let h3 = 0x10325476
  let h4 = 0xc3d2e1f0
  const w = new Int32Array(80)
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = padded.readInt32BE(block + i * 4)
    for (let i = 16; i < 80; i++) {
      const x = (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number)
      w[i] = (x << 1) | (x >>> 31)
    }
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    for (let i = 0; i < 80; i++) {
      let f: number
      let k: number
      if (i < 20) {
        f = (b & c) | (~b & d)
        k = 0x5a827999
      } else if (i < 40) {
        f = b ^ c ^ d
        k = 0x6ed9eba1
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d)
        k = 0x8f1bbcdc
      } else {
        f = b ^ c ^ d
        k = 0xca62c1d6
      }
      const next = (((a << 5) | (a >>> 27)) + f + e + k + (w[i] as number)) | 0
      e = d
      d = c
      c = (b << 30) | (b >>> 2)
      b = a
      a = next
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
  }
  const digest = Buffer.alloc(20)
  digest.writeInt32BE(h0, 0)
  digest.writeInt32BE(h1, 4)
  digest.writeInt32BE(h2, 8)
  digest.writeInt32BE(h3, 12)
  digest.writeInt32BE(h4, 16)
  return digest
}
