/** Base64 from the contract → bytes, without a Node Buffer (this runs in the page). */
export function bytesOf(base64: string): Uint8Array {
  const text = atob(base64)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i)
  return bytes
}

/**
 * Keeps a terminal view in step with the task's output file by byte offset: a chunk that starts
 * where the view ends is drawn, one already drawn (or partly) is trimmed, and one that starts
 * past the end is a gap the view must fill by reading the file (events are best effort).
 */
export class TerminalStream {
  offset = 0

  accept(from: number, bytes: Uint8Array): Uint8Array | 'gap' {
    const end = from + bytes.length
    if (from > this.offset) return 'gap'
    if (end <= this.offset) return new Uint8Array(0)
    const fresh = bytes.subarray(this.offset - from)
    this.offset = end
    return fresh
  }
}
