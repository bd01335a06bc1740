import { z } from 'zod'

/**
 * How a command's verdict was reached, as the audit log records it. The first six are the spec's;
 * user_deny, approval_timeout, session_closed and cancelled say why an approval ended in a refusal;
 * too_many_waiting, that the session already had its share of cards waiting (issue 19.5).
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
  'too_many_waiting',
  /** Input typed into a terminal task: allowed by the decision that started the task (issue 23.4). */
  'terminal_task',
  /** A connection the sandbox network setting decided by itself: `on` admitted it, or the public egress policy refused it. */
  'network_policy',
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
  /** A hook's answer: the agent runs the command with its own tool, so no exit code reaches us. */
  'handed_to_agent',
  /** Someone typed into a terminal task; `input` says who and how much. */
  'input',
  /** A connection the command's sandbox proxy decided (see `network`), not the command's own end. */
  'network',
  /** A hook allowed it with a one-time ticket, and the client never ran it before it expired. */
  'ticket_unused',
])
export type AuditStatus = z.infer<typeof AuditStatusSchema>

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
  /** The sandbox profile the command ran in (issue 12); absent in lines written before it existed. */
  sandbox: z.enum(['read-only', 'workspace-write', 'off']).optional(),
  /** The person chose to run this one command outside the sandbox. */
  unsandboxedByPerson: z.literal(true).optional(),
  /** The agent whose command it was (e.g. `claude-code 2.1.332`); absent for the person's own. */
  agent: z.string().max(300).optional(),
  /** status 'input': who typed into the task, the length, and the text unless the terminal hid it. */
  input: z
    .strictObject({
      by: z.enum(['agent', 'person']),
      bytes: z.number().int().nonnegative(),
      hidden: z.boolean(),
      text: z.string().max(1_000).optional(),
      closeStdin: z.literal(true).optional(),
    })
    .optional(),
  /** For status `network`: where the command wanted to connect, and why it was (not) let through. */
  network: z
    .strictObject({
      method: z.string().max(16),
      host: z.string().max(253),
      port: z.number().int().min(1).max(65_535),
      reason: z.string().max(500),
    })
    .optional(),
  /** Set when command/cwd were cut to keep the line under the audit line cap (4 KiB). */
  truncated: z.literal(true).optional(),
})
export type AuditEntry = z.infer<typeof AuditEntrySchema>
