import { Transform } from 'node:stream'

/**
 * The largest MCP message Shellgate reads: a bash call's command is at most 100 000 characters,
 * about 600 KB once JSON-escaped; nothing a client legitimately sends comes near this.
 */
export const MAX_MCP_LINE_BYTES = 4 * 1024 * 1024

/**
 * Passes stdio JSON-RPC through line by line and drops any line over `maxBytes` (reading on to
 * its newline without keeping it). The SDK's reader joins every chunk of a line it has not seen
 * the end of, again and again, so one endless line costs it memory and quadratic CPU; here it
 * costs a counter, and the next message is read as usual.
 */
export function boundedLines(maxBytes: number, onDropped: (bytes: number) => void): Transform {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let skipping = false
  let skipped = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let start = 0
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start)
        const end = newline === -1 ? chunk.length : newline + 1
        const piece = chunk.subarray(start, end)
        if (skipping) {
          skipped += piece.length
        } else if (pendingBytes + piece.length > maxBytes) {
          skipping = true
          skipped = pendingBytes + piece.length
          pending = []
          pendingBytes = 0
        } else {
          pending.push(piece)
          pendingBytes += piece.length
        }
        if (newline !== -1) {
          if (skipping) onDropped(skipped)
          else this.push(Buffer.concat(pending))
          pending = []
          pendingBytes = 0
          skipping = false
          skipped = 0
        }
        start = end
      }
      callback()
    },
    flush(callback) {
      if (!skipping && pendingBytes > 0) this.push(Buffer.concat(pending))
      else if (skipping) onDropped(skipped)
      callback()
    },
  })
}
