import { completeUtf8Length, firstCharStart } from './utf8'

/** seed 000: previews come from the last 4 KiB of output, as 5-line and 100-line tails. */
export const TAIL_BYTES = 4096
export const SHORT_PREVIEW_LINES = 5
export const LONG_PREVIEW_LINES = 100

/** Remembers the last 4 KiB of a byte stream without copying every chunk. */
export class OutputTail {
  private chunks: Buffer[] = []
  private held = 0

  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.held += chunk.length
    while (this.chunks.length > 1 && this.held - this.chunks[0]!.length >= TAIL_BYTES) {
      this.held -= this.chunks.shift()!.length
    }
  }

  bytes(): Buffer {
    const all = Buffer.concat(this.chunks)
    return all.subarray(Math.max(0, all.length - TAIL_BYTES))
  }
}

export interface Previews {
  preview5: string
  preview100: string
}

/** Decodes a tail (which may start and end mid-character) into the two previews. */
export function previewsOf(tail: Buffer): Previews {
  const start = firstCharStart(tail)
  const text = tail.subarray(start, completeUtf8Length(tail)).toString('utf8')
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/)
  return {
    preview5: lines.slice(-SHORT_PREVIEW_LINES).join('\n'),
    preview100: lines.slice(-LONG_PREVIEW_LINES).join('\n'),
  }
}
