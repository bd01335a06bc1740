import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { BashCallSchema, COMMAND_INPUT_MAX_CHARS } from '../../../shared/ipc/domains/bash'
import { RpcError } from '../../../shared/ipc/errors'
import { BASH_MAX_TIMEOUT_MS } from '../../core/bash/tool/timeout-policy'
import type { AgentLink } from '../agent-link'
import { waitForSchema } from './wait-for-schema'
import { defineTool, toolError } from '../mcp-tool'
import { reportCallProgress } from '../progress-reporter'

const DESCRIPTION = [
  "Runs a shell command on the user's machine through Shellgate, which decides whether it may run: read-only commands run at once, others wait for the person to approve them in Shellgate's window (deny rules and plan mode refuse them).",
  '',
  'Working directory persists between calls, but prefer absolute paths — `cd` in a compound command can trigger a permission prompt.',
  '`run_in_background` runs the command detached: it keeps running across turns; read it later with task_output. No `&` needed.',
  `timeout is in milliseconds (default 120000, at most ${BASH_MAX_TIMEOUT_MS}). A command still running when this call must answer (about 45 s) keeps running as a background task and you get its task id: use task_output to wait for it, task_stop to end it.`,
  "A command waiting for approval answers at once with the task id it will run as; task_output returns its output once allowed, or the person's message if denied.",
  '`tty: true` runs the command on a terminal as a task you can type into with task_input (prompts, REPLs such as python3 -i); it answers once the output goes quiet or matches `wait_for`, with the output so far. Starting one always asks the person.',
  '`wait_for` (a regular expression, or `port:5173`) makes a background command answer once its output matches or the port listens (a dev server is up), or at the timeout with the output so far.',
  'Without tty, stdin is empty: do not use interactive commands (git rebase -i, editors, pagers). Only commit or push when the user asks.',
].join('\n')

const InputSchema = z.strictObject({
  command: z
    .string()
    .min(1, 'command is empty')
    .max(COMMAND_INPUT_MAX_CHARS, `command is over ${COMMAND_INPUT_MAX_CHARS} characters`)
    .describe('The command to run'),
  description: z
    .string()
    .max(1_000)
    .optional()
    .describe("What the command does in 5-10 words, active voice (e.g. 'List files in current directory')"),
  timeout: z
    .number()
    .int('timeout must be whole milliseconds')
    .min(0, 'timeout must be ≥ 0')
    .max(BASH_MAX_TIMEOUT_MS, `timeout is at most ${BASH_MAX_TIMEOUT_MS} ms (10 minutes)`)
    .optional()
    .describe(`Milliseconds, at most ${BASH_MAX_TIMEOUT_MS}; 0 or absent = the default (120000)`),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run as a background task at once; read it with task_output'),
  tty: z.boolean().optional().describe('Run on a terminal, as a task that takes task_input'),
  wait_for: waitForSchema(
    'Answer once the output matches this regular expression (RE2), or "port:N" listens; implies run_in_background',
  ),
})

/** The call's facts beside its output; `callId` is the id task_output and task_stop take once it is a task. */
const OutputSchema = BashCallSchema.pick({
  status: true,
  exitCode: true,
  exitSignal: true,
  durationMs: true,
  totalBytes: true,
  taskId: true,
  outputPath: true,
}).extend({ callId: z.string() })

export function bashTool(link: AgentLink) {
  return defineTool({
    name: 'bash',
    description: DESCRIPTION,
    inputSchema: InputSchema,
    outputSchema: OutputSchema,
    annotations: {
      title: 'Run a shell command',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    async run(input, context) {
      const sessionId = await link.session()
      const callId = randomUUID()
      const stopProgress = context.progress
        ? reportCallProgress(link.client, callId, context.progress)
        : () => undefined
      // notifications/cancelled: end the call and its whole tree in the hub.
      const cancel = () =>
        void link.client.request('bash.cancel', { sessionId, callId }).catch(() => undefined)
      context.signal.addEventListener('abort', cancel, { once: true })
      try {
        const call = await link.client.request('bash.run', {
          sessionId,
          callId,
          answerWithinMs: link.deadlineMs,
          command: input.command,
          ...(input.description ? { description: input.description } : {}),
          ...(input.timeout !== undefined ? { timeout: input.timeout } : {}),
          ...(input.run_in_background !== undefined ? { run_in_background: input.run_in_background } : {}),
          ...(input.tty !== undefined ? { tty: input.tty } : {}),
          ...(input.wait_for !== undefined ? { wait_for: input.wait_for } : {}),
        })
        return {
          text: call.content === '' ? '(no output)' : call.content,
          structured: {
            callId: call.id,
            status: call.status,
            exitCode: call.exitCode,
            exitSignal: call.exitSignal,
            durationMs: call.durationMs,
            totalBytes: call.totalBytes,
            taskId: call.taskId,
            outputPath: call.outputPath,
          },
          isError: call.isError,
        }
      } catch (error) {
        if (error instanceof RpcError) return toolError(error.message)
        throw error
      } finally {
        stopProgress()
        context.signal.removeEventListener('abort', cancel)
      }
    },
  })
}
