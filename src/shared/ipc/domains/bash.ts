import { z } from 'zod'
import { PermissionModeSchema } from '../../settings'
import { CallChannelSchema, SessionIdSchema } from './sessions'

/** The command box refuses longer input before it reaches the classifier (which stops at 10 000). */
export const COMMAND_INPUT_MAX_CHARS = 100_000

/** The Bash tool call as an agent makes it; the strict tool schema in main re-validates every field. */
export const BashRunInputSchema = z
  .object({
    sessionId: SessionIdSchema,
    command: z
      .string()
      .max(COMMAND_INPUT_MAX_CHARS, `a command is at most ${COMMAND_INPUT_MAX_CHARS} characters`),
    description: z.string().max(1_000).optional(),
    timeout: z.union([z.number(), z.string().max(32)]).optional(),
    run_in_background: z.union([z.boolean(), z.string().max(8)]).optional(),
    /** Run on a pseudo-terminal (issue 23.1): it becomes a task the agent and the person can type into. */
    tty: z.union([z.boolean(), z.string().max(8)]).optional(),
    /** Answer once the output matches this regular expression, or `port:N` listens (issue 23.3). */
    wait_for: z.string().max(1_000).optional(),
    /** The caller's id for this call (bash.cancel, bash.progress before the answer); it becomes the task id. */
    callId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, 'callId must be 8-64 letters, digits, "-" or "_"')
      .optional(),
    /**
     * The caller's clock: answer within this many ms. A command still running then becomes a
     * background task; one that needs approval answers at once and runs as its task if allowed.
     */
    answerWithinMs: z
      .number()
      .int('answerWithinMs must be whole milliseconds')
      .min(100, 'answerWithinMs must be ≥ 100')
      .max(600_000, 'answerWithinMs is at most 600000')
      .optional(),
  })
  .strict()

export const BashCallStatusSchema = z.enum([
  'waiting_for_approval',
  'running',
  'completed',
  'failed',
  'timed_out',
  'cancelled',
  'spawn_error',
  'denied',
  'backgrounded',
  /** A hook allowed it and the agent ran it in its own shell (its client cannot hand it over): no output here. */
  'run_by_agent',
])
export type BashCallStatus = z.infer<typeof BashCallStatusSchema>

export const BashDecisionSchema = z.object({
  outcome: z.enum(['allow', 'ask', 'deny']),
  decidedBy: z.string(),
  reason: z.string(),
  rule: z.string().nullable(),
  ruleFile: z.string().nullable(),
})

/** One Bash call in a session's history. `content` is exactly what the model is shown. */
export const BashCallSchema = z.object({
  id: z.string(),
  sessionId: SessionIdSchema,
  command: z.string(),
  description: z.string().nullable(),
  cwd: z.string(),
  startedAt: z.string(),
  status: BashCallStatusSchema,
  exitCode: z.number().nullable(),
  exitSignal: z.string().nullable(),
  durationMs: z.number().nullable(),
  totalBytes: z.number(),
  content: z.string(),
  isError: z.boolean(),
  outputPath: z.string().nullable(),
  /**
   * The file Shellgate created at outputPath (device and inode): the UI's reads refuse a path the
   * command swapped for another file. Absent when no file was created (and in older history).
   */
  outputIdentity: z.object({ dev: z.number(), ino: z.number() }).optional(),
  taskId: z.string().nullable(),
  /** For a backgrounded call: how its task ended (completed, failed, stopped, …); null while it runs. */
  taskStatus: z.string().nullable().default(null),
  decision: BashDecisionSchema.nullable(),
  /** The sandbox profile the call ran in; absent before it ran (and in history written before issue 12). */
  sandbox: z.enum(['read-only', 'workspace-write', 'off']).optional(),
  /** How the call arrived (MCP, a hook, exec, the person); absent in history written before issue 22. */
  via: CallChannelSchema.optional(),
})
export type BashCall = z.infer<typeof BashCallSchema>

/** Live progress of a running call: elapsed, bytes, age of the last output and the tail. */
export const BashProgressSchema = z.object({
  callId: z.string(),
  sessionId: SessionIdSchema,
  elapsedMs: z.number(),
  totalBytes: z.number(),
  lastOutputAgeMs: z.number().nullable(),
  tail: z.string(),
})

export const OutputSliceSchema = z.object({
  text: z.string(),
  totalBytes: z.number(),
  /** Bytes before `text` that were not returned. */
  skippedBytes: z.number(),
  path: z.string().nullable(),
})

/** `bash.check`: what Shellgate would do with a command in a session now; nothing runs. */
export const BashCheckInputSchema = z
  .object({
    sessionId: SessionIdSchema,
    command: z
      .string()
      .max(COMMAND_INPUT_MAX_CHARS, `a command is at most ${COMMAND_INPUT_MAX_CHARS} characters`),
  })
  .strict()

export const BashCheckSchema = z.object({
  command: z.string(),
  readOnly: z.boolean(),
  reason: z.string(),
  parts: z.array(z.object({ text: z.string(), readOnly: z.boolean(), reason: z.string() })),
  /** run: it would run without asking; ask: the person would be asked; deny: it would be refused. */
  wouldDo: z.enum(['run', 'ask', 'deny']),
  /** Which branch decided (mode or rule) and why, in words. */
  decidedBy: z.string(),
  why: z.string(),
  mode: PermissionModeSchema,
})
export type BashCheck = z.infer<typeof BashCheckSchema>
