/** Seed 000: response bodies are capped at 10 MiB. */
export const MAX_RESPONSE_BODY_BYTES = 10 * 1024 * 1024

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError'
}

/** Refuses a declared content-length over the cap before a single body byte is read. */
export function checkDeclaredLength(contentLength: string | null | undefined, maxBytes: number): void {
  if (contentLength == null || !/^\d+$/.test(contentLength.trim())) return
  const declared = Number(contentLength)
  if (declared > maxBytes) {
    throw new BodyTooLargeError(`the response declares ${declared} bytes, over the ${maxBytes}-byte limit`)
  }
}

/**
 * Collects a body while counting, and stops at the first chunk that crosses the cap: a chunked or
 * lying server cannot make us buffer more than maxBytes plus one chunk.
 */
export async function readCappedBody(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = []
  let total = 0
  for await (const chunk of chunks) {
    total += chunk.byteLength
    if (total > maxBytes) throw new BodyTooLargeError(`the response body exceeded the ${maxBytes}-byte limit`)
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }
  return Buffer.concat(parts, total)
}
