import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'

/*
 * Randomness for the hub socket's one-shot clients (the hook, `ticket`, `exec`): a WebSocket nonce,
 * 4-byte frame masks, a stream id. Calling node:crypto for them would load it, and OpenSSL's first
 * use, about 6 ms of every hook call (issue 20.6); the hook's bundle loads a Node module only at
 * its first call (hub-client-cli.vite.config.ts), so here it loads only where the kernel's file is missing.
 */

/** One read serves a hook's handful of frames; a long-lived client reads again when it runs out. */
const POOL_BYTES = 256

export type RandomBytes = (size: number) => Buffer

/**
 * Random bytes from the kernel's generator (/dev/urandom, what OpenSSL seeds from), read a pool at
 * a time. Where there is no such file (Windows, a chroot without /dev) node:crypto's, loaded only then.
 */
export function randomSource(platform: NodeJS.Platform = process.platform): RandomBytes {
  if (platform !== 'win32') {
    try {
      return kernelRandom(readUrandom(POOL_BYTES))
    } catch {
      // No readable /dev/urandom: the same kind of bytes from OpenSSL.
    }
  }
  return (size) => randomBytes(size)
}

function kernelRandom(first: Buffer): RandomBytes {
  let pool = first
  return (size) => {
    if (pool.length < size) pool = readUrandom(Math.max(POOL_BYTES, size))
    const bytes = Buffer.from(pool.subarray(0, size))
    // Each byte is handed out once.
    pool = pool.subarray(size)
    return bytes
  }
}

function readUrandom(size: number): Buffer {
  const bytes = Buffer.alloc(size)
  const fd = openSync('/dev/urandom', 'r')
  try {
    let filled = 0
    while (filled < size) {
      const count = readSync(fd, bytes, filled, size - filled, null)
      if (count <= 0) throw new Error('/dev/urandom gave no bytes')
      filled += count
    }
  } finally {
    closeSync(fd)
  }
  return bytes
}
