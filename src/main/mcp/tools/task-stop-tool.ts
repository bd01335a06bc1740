import { z } from 'zod'
import { RpcError } from '../../../shared/ipc/errors'
import type { AgentLink } from '../agent-link'
import { defineTool, toolError } from '../mcp-tool'

const InputSchema = z.strictObject({
  task_id: z.string().min(1, 'task_id is empty').max(128).describe('The task id to stop'),
})

const OutputSchema = z.object({
  taskId: z.string(),
  /** withdrawn: it was still waiting for approval and never runs; else the stopped task's status. */
  status: z.string(),
  exitSignal: z.string().nullable().optional(),
})

export function taskStopTool(link: AgentLink) {
  return defineTool({
    name: 'task_stop',
    description:
      "Stops one of your background tasks and its whole process tree. A task still waiting for the person's approval is withdrawn and never runs.",
    inputSchema: InputSchema,
    outputSchema: OutputSchema,
    annotations: {
      title: 'Stop a background task',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(input) {
      const sessionId = await link.session()
      const taskId = input.task_id
      try {
        const where = await link.client.request('tasks.wait', {
          sessionId,
          taskId,
          block: false,
          timeoutMs: 0,
        })
        if (where.task.status === 'waiting_for_approval') {
          await link.client.request('bash.cancel', { sessionId, callId: taskId })
          return {
            text: `Task ${taskId} was withdrawn before the person answered; it will not run.`,
            structured: { taskId, status: 'withdrawn' },
            isError: false,
          }
        }
        if (where.task.status !== 'running') {
          return toolError(`Task ${taskId} is not running (${where.task.status}).`)
        }
        const task = await link.client.request('tasks.stop', { taskId })
        return {
          text: `Task ${taskId} stopped (${task.command}).`,
          structured: { taskId, status: task.status, exitSignal: task.exitSignal },
          isError: false,
        }
      } catch (error) {
        if (error instanceof RpcError) return toolError(error.message)
        throw error
      }
    },
  })
}
