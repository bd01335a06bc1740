import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { AuditEntry, AuditEntryInput } from './audit-entry'
import { formatAuditLine } from './audit-line'
import { type AuditFilter, type AuditPage, readAuditLog } from './audit-reader'
import { openOwnedFileForAppend, UnsafeFileError } from './owned-file'

export const AUDIT_FILE_NAME = 'audit.jsonl'

export interface AuditLog {
  readonly file: string
  /** Appends one line; resolves once it is written. Rejects on a malformed entry. */
  append(entry: AuditEntryInput): Promise<AuditEntry>
  /** Newest first, filtered; see AuditFilter. */
  read(filter?: AuditFilter): Promise<AuditPage>
  /** Called after each append from this process (for a live audit view). */
  onAppend(listener: (entry: AuditEntry) => void): () => void
}

export function createAuditLog(options: {
  home: string
  now?: () => Date
  /**
   * Told when the log file is refused (a symlink or FIFO planted in its place): the append rejects
   * and nothing is written through it; the hub turns this into a notice the person sees.
   */
  onRefused?: (message: string) => void
}): AuditLog {
  const file = join(options.home, AUDIT_FILE_NAME)
  const now = options.now ?? (() => new Date())
  const listeners = new Set<(entry: AuditEntry) => void>()
  // In this process appends go one at a time; across processes O_APPEND and the line cap keep lines whole.
  let queue: Promise<unknown> = Promise.resolve()

  const writeLine = async (line: string) => {
    await mkdir(options.home, { recursive: true, mode: 0o700 })
    // O_APPEND makes each write land at the end even with other writers; O_NOFOLLOW | O_NONBLOCK
    // and the fstat check refuse a planted symlink or FIFO without blocking.
    const handle = await openOwnedFileForAppend(file).catch((error: unknown) => {
      if (error instanceof UnsafeFileError) {
        const message = `the audit log ${error.message}; this command's audit line was not written`
        options.onRefused?.(message)
        throw new Error(message)
      }
      throw error
    })
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
