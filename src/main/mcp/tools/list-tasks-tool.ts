import { z } from 'zod'
import type { AgentLink } from '../agent-link'
import { defineTool } from '../mcp-tool'

const OutputSchema = z.object({
  tasks: z.array(
    z.object({
      taskId: z.string(),
      status: z.string(),
      command: z.string(),
      startedAt: z.string(),
      endedAt: z.string().nullable(),
      exitCode: z.number().nullable(),
      outputPath: z.string().nullable(),
    }),
  ),
  /** Tasks promised while the person decided, this agent's in this folder, from any earlier run too. */
  decisions: z.array(
    z.object({
      taskId: z.string(),
      state: z.string(),
      command: z.string(),
      message: z.string().nullable(),
      requestedAt: z.string(),
    }),
  ),
})

export function listTasksTool(link: AgentLink) {
  return defineTool({
    name: 'list_tasks',
    description:
      "Lists this session's background tasks, newest first: id, status, how long, and the command; then the commands that waited for the person's approval (from earlier sessions of this agent in this folder too) and what the person decided. task_output reads any of them.",
    inputSchema: z.strictObject({}),
    outputSchema: OutputSchema,
    annotations: {
      title: 'List background tasks',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run() {
      const sessionId = await link.session()
      const tasks = (await link.client.request('tasks.list', {})).filter(
        (task) => task.sessionId === sessionId,
      )
      const lines = tasks.map((task) => {
        const code = task.exitCode === null ? '' : ` (exit ${task.exitCode})`
        return `${task.id}  ${task.status}${code}  started ${task.startedAt}  ${task.command}`
      })
      const decisions = await link.client.request('tasks.decisions', {})
      const decided = decisions.map(
        (kept) =>
          `${kept.taskId}  ${kept.state === 'started' ? 'allowed' : kept.state}  asked ${kept.requestedAt}  ${kept.command}${kept.message ? `\n  the person said: ${kept.message}` : ''}`,
      )
      const text = [
        lines.length === 0 ? 'No background tasks in this session.' : lines.join('\n'),
        ...(decided.length > 0 ? ['', "Commands that waited for the person's approval:", ...decided] : []),
      ].join('\n')
      return {
        text,
        structured: {
          decisions: decisions.map((kept) => ({
            taskId: kept.taskId,
            state: kept.state,
            command: kept.command,
            message: kept.message,
            requestedAt: kept.requestedAt,
          })),
          tasks: tasks.map((task) => ({
            taskId: task.id,
            status: task.status,
            command: task.command,
            startedAt: task.startedAt,
            endedAt: task.endedAt,
            exitCode: task.exitCode,
            outputPath: task.outputPath,
          })),
        },
        isError: false,
      }
    },
  })
}
