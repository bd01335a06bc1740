import { z } from 'zod'
import { BashCheckSchema, COMMAND_INPUT_MAX_CHARS } from '../../../shared/ipc/domains/bash'
import { RpcError } from '../../../shared/ipc/errors'
import type { AgentLink } from '../agent-link'
import { defineTool, toolError } from '../mcp-tool'

const InputSchema = z.strictObject({
  command: z
    .string()
    .min(1, 'command is empty')
    .max(COMMAND_INPUT_MAX_CHARS, `command is over ${COMMAND_INPUT_MAX_CHARS} characters`)
    .describe('The command to check'),
})

const WOULD: Record<'run' | 'ask' | 'deny', string> = {
  run: 'would run at once, without asking',
  ask: "would wait for the person's approval in Shellgate",
  deny: 'would be refused',
}

export function checkCommandTool(link: AgentLink) {
  return defineTool({
    name: 'check_command',
    description:
      'Says what Shellgate would do with a command now — run it at once (read-only, or allowed by a rule), ask the person, or refuse it — and why, part by part. It runs nothing.',
    inputSchema: InputSchema,
    outputSchema: BashCheckSchema,
    annotations: {
      title: 'Check a command without running it',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(input) {
      const sessionId = await link.session()
      try {
        const check = await link.client.request('bash.check', { sessionId, command: input.command })
        const parts = check.parts.map(
          (part) => `- ${part.text}: ${part.readOnly ? 'read-only' : 'not read-only'} (${part.reason})`,
        )
        return {
          text: [
            `This command ${WOULD[check.wouldDo]} (mode ${check.mode}): ${check.why}.`,
            // The decision already says why for a read-only command; otherwise say why it is not.
            ...(check.readOnly ? [] : [`It is not read-only: ${check.reason}.`]),
            ...(parts.length > 1 ? ['Parts:', ...parts] : []),
          ].join('\n'),
          structured: check,
          isError: false,
        }
      } catch (error) {
        if (error instanceof RpcError) return toolError(error.message)
        throw error
      }
    },
  })
}
