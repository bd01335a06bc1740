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
