import { z } from 'zod'
import { RpcError } from '../../../shared/ipc/errors'
import type { AgentLink } from '../agent-link'
import { defineTool, toolError } from '../mcp-tool'

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
})

const OutputSchema = z.object({
  task_id: z.string(),
  bytes: z.number().int(),
  hidden: z.boolean(),
  output_cursor: z.number().int(),
})

/**
 * task_input (issue 23.2): types into a running terminal task, as a keyboard would. The answer
 * says where the output stood, so the model reads on with task_output {since, wait_for}.
 */
export function taskInputTool(link: AgentLink) {
  return defineTool({
    name: 'task_input',
    description:
      'Types into a running task that was started with bash {tty: true} (answer a prompt, drive a REPL). Returns at once with output_cursor; then call task_output with since: output_cursor and wait_for: a pattern the program prints next (e.g. the next prompt) to read its answer. Your text is echoed by the terminal, so wait for something only the program prints. While a password prompt hides input, what you type is kept out of every log.',
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
        return {
          text: `Typed ${result.bytes} bytes into task ${input.task_id}.${hidden} Read its answer with task_output (task_id "${input.task_id}", since ${result.outputCursor}, wait_for the next prompt).`,
          structured: {
            task_id: input.task_id,
            bytes: result.bytes,
            hidden: result.hidden,
            output_cursor: result.outputCursor,
          },
          isError: false,
        }
      } catch (error) {
        if (error instanceof RpcError) return toolError(error.message)
        throw error
      }
    },
  })
}
