import type { AuditEntry } from '../../../shared/audit'

export {
  type AuditEntry,
  AuditEntrySchema,
  type AuditStatus,
  AuditStatusSchema,
  type DecidedBy,
  DecidedBySchema,
} from '../../../shared/audit'

/** What a caller passes: the time is stamped on append unless given. */
export type AuditEntryInput = Omit<AuditEntry, 'time' | 'truncated'> & { time?: string }
