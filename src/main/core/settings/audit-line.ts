import { type AuditEntry, AuditEntrySchema } from './audit-entry'

/**
 * PIPE_BUF on Linux. One write(2) of at most this many bytes with O_APPEND lands whole even when
 * several processes append at once, so every line stays under it.
 */
export const AUDIT_LINE_MAX_BYTES = 4_096

const ELLIPSIS = '…'

/** Serialises an entry as one line under the cap, cutting the command (then the cwd) if it must. */
export function formatAuditLine(entry: AuditEntry): string {
  const checked = AuditEntrySchema.parse(entry)
  let line = `${JSON.stringify(checked)}\n`
  if (Buffer.byteLength(line) <= AUDIT_LINE_MAX_BYTES) return line
  const cut: AuditEntry = { ...checked, truncated: true }
  for (const field of ['command', 'cwd'] as const) {
    line = `${JSON.stringify(cut)}\n`
    const excess = Buffer.byteLength(line) - AUDIT_LINE_MAX_BYTES
    if (excess <= 0) break
    cut[field] = cutToFit(cut[field], excess)
  }
  line = `${JSON.stringify(cut)}\n`
  if (Buffer.byteLength(line) > AUDIT_LINE_MAX_BYTES) {
    throw new Error('audit entry does not fit in one line even with its command and cwd cut')
  }
  return line
}

/**
 * Drops code points from the end until the JSON form shrinks by `excess` bytes; JSON escaping can
 * make one character cost up to 6 bytes, so the loop measures instead of guessing.
 */
function cutToFit(text: string, excess: number): string {
  const chars = Array.from(text)
  let saved = 0
  while (chars.length > 0 && saved < excess + Buffer.byteLength(ELLIPSIS)) {
    saved += Buffer.byteLength(JSON.stringify(chars.pop()!)) - 2
  }
  return chars.join('') + ELLIPSIS
}
