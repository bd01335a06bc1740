import { z } from 'zod'
import { SessionIdSchema } from './sessions'

/** A wait_for pattern is a line or two of what a program prints, not a program of its own. */
export const WAIT_FOR_MAX_CHARS = 1_000

export const TaskStatusSchema = z.enum(['running', 'completed', 'failed', 'killed', 'stopped'])

/** A port a task listens on; `openedAt` is the host's 127.0.0.1 port the person opened for it, if any. */
export const TaskPortSchema = z.object({
  port: z.number().int(),
  openedAt: z.number().int().nullable(),
})
export type TaskPort = z.infer<typeof TaskPortSchema>

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
  /** It runs on a pseudo-terminal and takes input (issue 23.1). */
  tty: z.boolean().default(false),
  /** TCP ports its processes listen on, and the ones the person opened on the host's loopback. */
  ports: z.array(TaskPortSchema).default([]),
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
    /** A byte cursor: only output from here on (a nextSince from an earlier read). */
    since: z.number().int('since must be a whole byte offset').min(0, 'since must be ≥ 0').optional(),
    /** Wait until the output matches this regular expression (RE2), or `port:N` listens. */
    waitFor: z.string().min(1).max(WAIT_FOR_MAX_CHARS).optional(),
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
    /** It runs on a terminal: task_input types into it. */
    tty: z.boolean().default(false),
    /** Where `output` ends in the output file: pass it as `since` to read on. */
    nextSince: z.number().nullable().default(null),
    /** With waitFor: the matched text (or `port:N`), null when it did not happen. */
    matched: z.string().nullable().optional(),
  }),
})
export type TaskWaitResult = z.infer<typeof TaskWaitResultSchema>

const TaskRef = { sessionId: SessionIdSchema, taskId: z.string().min(1).max(128) }

/** `tasks.input`: types into a running terminal task (the agent's task_input, the person's keys). */
export const TaskInputInputSchema = z
  .object({
    ...TaskRef,
    text: z.string().max(65_536, 'text is at most 64 KiB'),
    /** After the text, end the input (Ctrl+D, the terminal's end-of-file). */
    closeStdin: z.boolean().optional(),
  })
  .strict()

/** One input as the desk lists it; text is null when it was typed while the terminal hid it. */
export const TaskInputEntrySchema = z.object({
  id: z.string(),
  taskId: z.string(),
  sessionId: SessionIdSchema,
  at: z.string(),
  by: z.enum(['agent', 'person']),
  bytes: z.number().int(),
  text: z.string().nullable(),
  hidden: z.boolean(),
  closeStdin: z.boolean(),
  sealed: z.boolean(),
})
export type TaskInputEntry = z.infer<typeof TaskInputEntrySchema>

export const TaskInputResultSchema = z.object({
  bytes: z.number().int(),
  hidden: z.boolean(),
  /** The output file's size before the input: read from here (since) to see the answer. */
  outputCursor: z.number().int(),
})

export const TaskRefSchema = z.object(TaskRef).strict()

export const TaskResizeInputSchema = z
  .object({
    ...TaskRef,
    cols: z.number().int().min(2).max(1_000),
    rows: z.number().int().min(2).max(1_000),
  })
  .strict()

/** `tasks.terminalRead`: the terminal's raw bytes from a byte offset, base64, for the desk's terminal view. */
export const TaskTerminalReadInputSchema = z
  .object({ ...TaskRef, from: z.number().int().min(0).optional() })
  .strict()

export const TaskTerminalBytesSchema = z.object({
  taskId: z.string(),
  sessionId: SessionIdSchema,
  /** Byte offset of `data` in the output file. */
  from: z.number().int(),
  /** Base64 of the raw terminal bytes, control sequences included. */
  data: z.string(),
  /** tasks.terminalRead only: the size of the file when read. */
  size: z.number().int().optional(),
  cols: z.number().int().optional(),
  rows: z.number().int().optional(),
})

export const TaskPortInputSchema = z
  .object({ ...TaskRef, port: z.number().int().min(1).max(65_535) })
  .strict()
