import { z } from 'zod'

/**
 * How a command's verdict was reached, as the audit log records it. The first six are the spec's;
 * user_deny, approval_timeout, session_closed and cancelled say why an approval ended in a refusal.
 */
export const DecidedBySchema = z.enum([
  'read_only',
  'rule',
  'user_once',
  'user_always',
  'mode',
  'deny_rule',
  'user_deny',
  'approval_timeout',
  'session_closed',
  'cancelled',
])
export type DecidedBy = z.infer<typeof DecidedBySchema>

/** The executor's five statuses, plus what only the Bash tool path knows. */
export const AuditStatusSchema = z.enum([
  'completed',
  'failed',
  'timed_out',
  'cancelled',
  'spawn_error',
  'denied',
  'backgrounded',
  'stopped',
])
export type AuditStatus = z.infer<typeof AuditStatusSchema>
