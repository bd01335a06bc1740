import { z } from 'zod'
import { type TaskWaitResult, TaskWaitResultSchema } from '../../../shared/ipc/domains/tasks'
import { RpcError } from '../../../shared/ipc/errors'
import { TASK_OUTPUT_DEFAULT_TIMEOUT_MS } from '../../core/tasks/task-output'
import type { AgentLink } from '../agent-link'
import { waitForSchema, waitTimeoutSchema } from './wait-for-schema'
import { defineTool, toolError } from '../mcp-tool'

const InputSchema = z.strictObject({
  task_id: z.string().min(1, 'task_id is empty').max(128).describe('The task id from bash'),
  block: z.boolean().optional().describe('Wait for the task to end (default true)'),
  timeout: waitTimeoutSchema(
    `How long to wait in ms (default ${TASK_OUTPUT_DEFAULT_TIMEOUT_MS}; this call still answers within about 45 s)`,
  ),
  since: z
    .number()
    .int('since must be a whole byte offset')
    .min(0, 'since must be ≥ 0')
    .optional()
    .describe('Only output from this byte cursor on (a next_since or output_cursor from an earlier call)'),
  wait_for: waitForSchema(
    'Wait until the output (after since) matches this regular expression (RE2; ^ and $ match at lines), or "port:N" until the task listens on TCP port N',
  ),
})

export function taskOutputTool(link: AgentLink) {
  return defineTool({
    name: 'task_output',
    description:
      "Reads a background task's output: waits (block, default true) until it ends or the timeout passes, or with wait_for until its output matches (or port:N listens); since reads only what came after a byte cursor (next_since). For a task still waiting for the person's approval it waits for their answer first; if they deny it you get their message. A running task shows what it printed first; a finished one its end, with the path of the full output file.",
    inputSchema: InputSchema,
    outputSchema: TaskWaitResultSchema,
    annotations: {
      title: 'Read background task output',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(input) {
      const sessionId = await link.session()
      // The client's clock bounds the wait too: ask again to keep waiting.
      const timeoutMs = Math.min(input.timeout ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS, link.deadlineMs)
      try {
        const result = await link.client.request('tasks.wait', {
          sessionId,
          taskId: input.task_id,
          block: input.block ?? true,
          timeoutMs,
          ...(input.since !== undefined ? { since: input.since } : {}),
          ...(input.wait_for !== undefined ? { waitFor: input.wait_for } : {}),
        })
        return {
          text: formatTaskOutput(result, input.since !== undefined || input.wait_for !== undefined),
          structured: result,
          isError: result.task.status === 'denied',
        }
      } catch (error) {
        if (error instanceof RpcError) return toolError(error.message)
        throw error
      }
    },
  })
}

/** The model's view of a task: where it stands, in one line, then its output. */
export function formatTaskOutput(result: TaskWaitResult, withCursor = false): string {
  const { task } = result
  const head = (() => {
    if (task.status === 'denied') return `The person denied task ${task.taskId} in Shellgate; it did not run.`
    if (task.status === 'waiting_for_approval') {
      return `Task ${task.taskId} is still waiting for the person's approval in Shellgate; nothing has run. Call task_output again to keep waiting.`
    }
    if (task.status === 'running' && task.matched != null) {
      return `Task ${task.taskId} is running; wait_for matched ${JSON.stringify(task.matched.slice(0, 200))}.`
    }
    if (task.status === 'running') {
      const waited = task.matched === null ? '; wait_for has not matched yet' : ''
      return `Task ${task.taskId} is still running (${result.retrievalStatus}${waited}). Call task_output again to keep waiting, or task_stop to end it.`
    }
    const code = task.exitCode === null ? '' : ` with exit code ${task.exitCode}`
    return `Task ${task.taskId} ${task.status}${code}.`
  })()
  const body = task.status === 'denied' ? (task.message ?? '') : task.output
  const note =
    task.truncated && task.outputPath ? [`(Output truncated; the full output is in ${task.outputPath})`] : []
  const cursor =
    task.nextSince !== null &&
    (withCursor || task.tty) &&
    task.status !== 'denied' &&
    task.status !== 'waiting_for_approval'
      ? [`(next_since: ${task.nextSince}${task.tty ? '; the task takes task_input' : ''})`]
      : []
  return [head, ...note, ...(body === '' ? [] : [body]), ...cursor].join('\n')
}
