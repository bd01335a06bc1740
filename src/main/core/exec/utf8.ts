/**
 * Byte-level UTF-8 helpers. Budgets are counted in bytes, so a cut can land inside a multi-byte
 * character; these keep decoded text free of the replacement characters such a cut would create.
 */

/** Length of `bytes` without a trailing, incomplete UTF-8 sequence. */
export function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length
  // A UTF-8 sequence is at most 4 bytes, so only the last 3 can start an incomplete one.
  for (let back = 1; back <= Math.min(3, end); back++) {
    const byte = bytes[end - back]!
    if ((byte & 0xc0) === 0x80) continue // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? end - back : end
  }
  return end
}

/** Index of the first byte that starts a character (skips continuation bytes at a tail's start). */
export function firstCharStart(bytes: Uint8Array): number {
  let start = 0
  while (start < Math.min(3, bytes.length) && (bytes[start]! & 0xc0) === 0x80) start++
  return start
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true })

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictDecoder.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** Decodes bytes that were cut at a budget without splitting the last character. */
export function decodeUtf8Cut(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, completeUtf8Length(bytes)).toString('utf8')
}

const BINARY_SNIFF_BYTES = 4096

/** Binary when a NUL appears in the first 4 KiB (the same test git and grep use). */
export function looksBinary(head: Uint8Array): boolean {
  return head.length > 0 && head.subarray(0, BINARY_SNIFF_BYTES).includes(0)
}

/** What is shown instead of binary output, to the model and in every preview. */
export function binaryOutputPlaceholder(totalBytes: number): string {
  return `[binary output: ${totalBytes} bytes]`
}
