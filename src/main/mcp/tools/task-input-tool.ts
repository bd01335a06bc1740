import { z } from 'zod'
import { TaskWaitResultSchema } from '../../../shared/ipc/domains/tasks'
import { RpcError } from '../../../shared/ipc/errors'
import { TASK_OUTPUT_DEFAULT_TIMEOUT_MS } from '../../core/tasks/task-output'
import type { AgentLink } from '../agent-link'
import { defineTool, toolError } from '../mcp-tool'
import { formatTaskOutput } from './task-output-tool'
import { waitForSchema, waitTimeoutSchema } from './wait-for-schema'

const InputSchema = z.strictObject({
  task_id: z
    .string()
    .min(1, 'task_id is empty')
    .max(128)
    .describe('The task id from bash (a tty: true command)'),
  text: z
    .string()
    .max(65_536, 'text is at most 64 KiB')
    .describe(
      'What to type. "\\n" is the Enter key; "\\u0003" is Ctrl+C. Empty with close_stdin to only end input.',
    ),
  close_stdin: z
    .boolean()
    .optional()
    .describe('After the text, end the input (Ctrl+D, end-of-file on a line-mode prompt)'),
  wait_for: waitForSchema(
    'Then wait until what the task prints after your text matches this regular expression (RE2; ^ and $ match at lines), e.g. the next prompt, and answer with that output: task_output in the same call',
  ),
  timeout: waitTimeoutSchema(
    `With wait_for: how long to wait in ms (default ${TASK_OUTPUT_DEFAULT_TIMEOUT_MS})`,
  ),
})

const OutputSchema = z.object({
  task_id: z.string(),
  bytes: z.number().int(),
  hidden: z.boolean(),
  output_cursor: z.number().int(),
  /** With wait_for: what task_output {since: output_cursor, wait_for} would have answered. */
  read: TaskWaitResultSchema.optional(),
})

/**
 * task_input (issue 23.2): types into a running terminal task, as a keyboard would. The answer
 * says where the output stood, so the model reads on with task_output {since, wait_for}.
 */
export function taskInputTool(link: AgentLink) {
  return defineTool({
    name: 'task_input',
    description:
      'Types into a running task that was started with bash {tty: true} (answer a prompt, drive a REPL). With wait_for (a pattern the program prints next, e.g. its next prompt) it waits and answers with that output; without, it returns at once with output_cursor for task_output {since, wait_for}. Your text is echoed by the terminal, so wait for something only the program prints. While a password prompt hides input, what you type is kept out of every log.',
    inputSchema: InputSchema,
    outputSchema: OutputSchema,
    annotations: {
      title: 'Type into a terminal task',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    async run(input) {
      const sessionId = await link.session()
      try {
        const result = await link.client.request('tasks.input', {
          sessionId,
          taskId: input.task_id,
          text: input.text,
          ...(input.close_stdin ? { closeStdin: true } : {}),
        })
        const hidden = result.hidden
          ? ' The terminal was not echoing (a password prompt): the text is not logged.'
          : ''
        const typed = {
          task_id: input.task_id,
          bytes: result.bytes,
          hidden: result.hidden,
          output_cursor: result.outputCursor,
        }
        if (input.wait_for === undefined) {
          return {
            text: `Typed ${result.bytes} bytes into task ${input.task_id}.${hidden} Read its answer with task_output (task_id "${input.task_id}", since ${result.outputCursor}, wait_for the next prompt).`,
            structured: typed,
            isError: false,
          }
        }
        // One call instead of two: an agent answering a prompt wants the next prompt back (issue 23.2).
        const read = await link.client.request('tasks.wait', {
          sessionId,
          taskId: input.task_id,
          block: true,
          timeoutMs: Math.min(input.timeout ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS, link.deadlineMs),
          since: result.outputCursor,
          waitFor: input.wait_for,
        })
        return {
          text: `Typed ${result.bytes} bytes into task ${input.task_id}.${hidden}\n${formatTaskOutput(read, true)}`,
          structured: { ...typed, read },
          isError: false,
        }
      } catch (error) {
        if (error instanceof RpcError) return toolError(error.message)
        throw error
      }
    },
  })
}
