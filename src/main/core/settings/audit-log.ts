import { constants } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'
import type { AuditEntry, AuditEntryInput } from './audit-entry'
import { formatAuditLine } from './audit-line'
import { type AuditFilter, type AuditPage, readAuditLog } from './audit-reader'

export const AUDIT_FILE_NAME = 'audit.jsonl'

/** O_APPEND makes each write land at the end even with other writers; a planted symlink is refused. */
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0)

export interface AuditLog {
  readonly file: string
  /** Appends one line; resolves once it is written. Rejects on a malformed entry. */
  append(entry: AuditEntryInput): Promise<AuditEntry>
  /** Newest first, filtered; see AuditFilter. */
  read(filter?: AuditFilter): Promise<AuditPage>
  /** Called after each append from this process (for a live audit view). */
  onAppend(listener: (entry: AuditEntry) => void): () => void
}

export function createAuditLog(options: { home: string; now?: () => Date }): AuditLog {
  const file = join(options.home, AUDIT_FILE_NAME)
  const now = options.now ?? (() => new Date())
  const listeners = new Set<(entry: AuditEntry) => void>()
  // In this process appends go one at a time; across processes O_APPEND and the line cap keep lines whole.
  let queue: Promise<unknown> = Promise.resolve()

  const writeLine = async (line: string) => {
    await mkdir(options.home, { recursive: true, mode: 0o700 })
    const handle = await open(file, APPEND_FLAGS, 0o600)
    try {
      const bytes = Buffer.from(line)
      const { bytesWritten } = await handle.write(bytes, 0, bytes.length)
      if (bytesWritten !== bytes.length)
        throw new Error(`short write to ${file}: ${bytesWritten}/${bytes.length}`)
    } finally {
      await handle.close()
    }
  }

  return {
    file,
    append(input) {
      const entry: AuditEntry = { ...input, time: input.time ?? now().toISOString() }
      let line: string
      try {
        line = formatAuditLine(entry)
      } catch (error) {
        return Promise.reject(error)
      }
      const written = queue.then(() => writeLine(line))
      queue = written.catch(() => {})
      return written.then(() => {
        const stored = JSON.parse(line) as AuditEntry
        for (const listener of listeners) listener(stored)
        return stored
      })
    },
    read: (filter) => readAuditLog(file, filter),
    onAppend(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
