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
})

export function listTasksTool(link: AgentLink) {
  return defineTool({
    name: 'list_tasks',
    description:
      "Lists this session's background tasks, newest first: id, status, how long, and the command.",
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
      return {
        text: lines.length === 0 ? 'No background tasks in this session.' : lines.join('\n'),
        structured: {
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
