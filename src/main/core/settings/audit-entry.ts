import { z } from 'zod'

import { AuditStatusSchema, DecidedBySchema } from '../../../shared/audit'

export { AuditStatusSchema, DecidedBySchema, type AuditStatus, type DecidedBy } from '../../../shared/audit'

/** One line of SHELLGATE_HOME/audit.jsonl. Never output bodies: only their size. */
export const AuditEntrySchema = z.strictObject({
  time: z.iso.datetime(),
  session: z.string().min(1),
  command: z.string(),
  cwd: z.string(),
  shell: z.string(),
  verdict: z.enum(['allow', 'deny']),
  decidedBy: DecidedBySchema,
  /** The rule that decided, and the settings file (or `session:<id>`) it came from. */
  rule: z.string().nullable(),
  ruleFile: z.string().nullable(),
  /** Who answered the approval (e.g. `user`); null when no one was asked. */
  approvedBy: z.string().nullable(),
  status: AuditStatusSchema,
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative().nullable(),
  bytes: z.number().int().nonnegative().nullable(),
  taskId: z.string().optional(),
  /** Set when command/cwd were cut to keep the line under AUDIT_LINE_MAX_BYTES. */
  truncated: z.literal(true).optional(),
})
export type AuditEntry = z.infer<typeof AuditEntrySchema>

/** What a caller passes: the time is stamped on append unless given. */
export type AuditEntryInput = Omit<AuditEntry, 'time' | 'truncated'> & { time?: string }
