import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { rootCertificates } from 'node:tls'
import type { Sourced } from './network-config'
import { NetworkConfigError } from './network-error'

/** A CA bundle is a few hundred KiB at most; anything larger is not what the user meant. */
const CA_FILE_MAX_BYTES = 4 * 1024 * 1024

/**
 * Reads the custom CA once per loader (seed 000: "read once and cached") and returns it together
 * with Node's bundled roots, because Node's `ca` option replaces the defaults instead of adding to
 * them, and a corporate CA must not make every public site untrusted.
 */
export function createCaLoader(caCertFile: Sourced<string> | null): () => string[] | undefined {
  let cached: string[] | undefined
  return () => {
    if (!caCertFile) return undefined
    cached ??= [...rootCertificates, readCaFile(caCertFile)]
    return cached
  }
}

function readCaFile({ value: path, source }: Sourced<string>): string {
  let text: string
  try {
    const bytes = readCappedRegularFile(path, CA_FILE_MAX_BYTES + 1)
    if (bytes.length > CA_FILE_MAX_BYTES) {
      throw new NetworkConfigError(
        source,
        `"${path}" is larger than ${CA_FILE_MAX_BYTES} bytes; not a CA bundle`,
      )
    }
    text = bytes.toString('utf8')
  } catch (error) {
    if (error instanceof NetworkConfigError) throw error
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new NetworkConfigError(source, `cannot read the CA file "${path}" (${reason})`)
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new NetworkConfigError(
      source,
      `"${path}" contains no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    )
  }
  return text
}

/**
 * The file's size is checked before anything is read, and at most `maxBytes` are read: a 2 GB file
 * (or a FIFO, or /dev/zero) named as the CA must not block the main process or fill its memory.
 */
function readCappedRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' })
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes))
    const read = readSync(fd, buffer, 0, buffer.length, 0)
    return buffer.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}
