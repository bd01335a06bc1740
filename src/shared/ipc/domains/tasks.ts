import { z } from 'zod'
import { SessionIdSchema } from './sessions'

export const TaskStatusSchema = z.enum(['running', 'completed', 'failed', 'killed', 'stopped'])

export const BackgroundTaskSchema = z.object({
  id: z.string(),
  sessionId: SessionIdSchema,
  command: z.string(),
  description: z.string().nullable(),
  status: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  exitCode: z.number().nullable(),
  /** The signal that ended it (SIGTERM, SIGKILL…), when one did. */
  exitSignal: z.string().nullable().default(null),
  totalBytes: z.number(),
  lastOutputAt: z.string().nullable(),
  outputPath: z.string(),
  stoppedBy: z.string().nullable(),
})
export type BackgroundTask = z.infer<typeof BackgroundTaskSchema>

/** Coalesced: at most ~20 per second per task, each with the latest tail. */
export const TaskOutputSchema = z.object({
  taskId: z.string(),
  sessionId: SessionIdSchema,
  totalBytes: z.number(),
  tail: z.string(),
})

/** `tasks.wait`: TaskOutput for a caller (seed 003), including a task still waiting for the person. */
export const TaskWaitInputSchema = z
  .object({
    sessionId: SessionIdSchema,
    taskId: z.string().min(1).max(128),
    /** Default true: wait until the task ends or timeoutMs passes. */
    block: z.boolean().optional(),
    timeoutMs: z
      .number()
      .int('timeoutMs must be whole milliseconds')
      .min(0, 'timeoutMs must be ≥ 0')
      .max(600_000, 'timeoutMs is at most 600000 (10 minutes)')
      .optional(),
  })
  .strict()

export const TaskWaitResultSchema = z.object({
  /** success: an end state was read; not_ready: block=false and still going; timeout: still going. */
  retrievalStatus: z.enum(['success', 'not_ready', 'timeout']),
  task: z.object({
    taskId: z.string(),
    /** A task status, or waiting_for_approval / denied for a task promised before the person answered. */
    status: z.string(),
    command: z.string(),
    exitCode: z.number().nullable(),
    /** What the model reads: the output (head while running, tail when done) or the person's message. */
    output: z.string(),
    outputPath: z.string().nullable(),
    truncated: z.boolean(),
    /** The person's message when they denied it. */
    message: z.string().nullable(),
  }),
})
export type TaskWaitResult = z.infer<typeof TaskWaitResultSchema>
