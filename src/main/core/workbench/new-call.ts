import type { BashCall } from '../../../shared/ipc/domains/bash'
import { type BashToolInput, BashToolInputSchema } from '../bash/tool/input-schema'
import type { LiveSession } from './session-service'
import { WorkbenchError } from './workbench-error'

/** A call as it starts: running, nothing decided, nothing printed. */
export function newCall(
  id: string,
  session: LiveSession,
  input: { command: string; description?: string | undefined },
): BashCall {
  return {
    id,
    sessionId: session.record.id,
    command: input.command,
    description: input.description ?? null,
    cwd: session.cwd,
    startedAt: new Date().toISOString(),
    status: 'running',
    exitCode: null,
    exitSignal: null,
    durationMs: null,
    totalBytes: 0,
    content: '',
    isError: false,
    outputPath: null,
    taskId: null,
    taskStatus: null,
    decision: null,
  }
}

/** The Bash tool's input, or a coded error that names the field at fault. */
export function parseInput(raw: Record<string, unknown>): BashToolInput {
  const parsed = BashToolInputSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path[0] === undefined ? 'input' : String(issue.path[0])
  throw new WorkbenchError('invalid_input', issue?.message ?? 'invalid', field)
}
