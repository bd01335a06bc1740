import { createInterface } from 'node:readline'
import { type AuditEntry, AuditEntrySchema, type AuditStatus, type DecidedBy } from './audit-entry'
import { openOwnedFileForRead } from './owned-file'

export const AUDIT_READ_DEFAULT_LIMIT = 200
export const AUDIT_READ_MAX_LIMIT = 10_000

export interface AuditFilter {
  session?: string
  decidedBy?: DecidedBy
  status?: AuditStatus
  /** Case-insensitive substring of the command, cwd or rule. */
  text?: string
  /** Newest entries kept; default AUDIT_READ_DEFAULT_LIMIT, at most AUDIT_READ_MAX_LIMIT. */
  limit?: number
}

export interface AuditPage {
  /** Newest first. */
  entries: AuditEntry[]
  /** Lines that are not valid entries (hand edits, a disk that filled up mid-line). */
  skippedLines: number
}

/** Streams the log once, keeping only the newest `limit` matches, so memory stays bounded. */
export async function readAuditLog(file: string, filter: AuditFilter = {}): Promise<AuditPage> {
  const limit = filter.limit ?? AUDIT_READ_DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_READ_MAX_LIMIT) {
    throw new Error(`limit must be an integer from 1 to ${AUDIT_READ_MAX_LIMIT}, got ${limit}`)
  }
  const text = filter.text?.toLowerCase()
  const matches = (entry: AuditEntry) =>
    (!filter.session || entry.session === filter.session) &&
    (!filter.decidedBy || entry.decidedBy === filter.decidedBy) &&
    (!filter.status || entry.status === filter.status) &&
    (!text ||
      [entry.command, entry.cwd, entry.rule ?? ''].some((field) => field.toLowerCase().includes(text)))

  const kept: AuditEntry[] = []
  let skippedLines = 0
  // A symlink or FIFO in the log's place is refused (UnsafeFileError) instead of followed or blocked on.
  const handle = await openOwnedFileForRead(file)
  if (handle === null) return { entries: [], skippedLines: 0 }
  const stream = handle.createReadStream({ encoding: 'utf8' })
  for await (const line of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim() === '') continue
    const entry = parseLine(line)
    if (!entry) skippedLines++
    else if (matches(entry)) {
      kept.push(entry)
      // Trimming in batches keeps the scan linear in the file size.
      if (kept.length >= limit * 2) kept.splice(0, kept.length - limit)
    }
  }
  return { entries: kept.slice(-limit).reverse(), skippedLines }
}

function parseLine(line: string): AuditEntry | null {
  try {
    const parsed = AuditEntrySchema.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
