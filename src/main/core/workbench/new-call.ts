import type { BashCall } from '../../../shared/ipc/domains/bash'
import { type BashToolInput, BashToolInputSchema } from '../bash/tool/input-schema'
import type { LiveSession } from './session-service'
import { parseWaitFor } from '../tasks/wait-condition'
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

/**
 * A terminal run and a wait_for are tasks from their first moment (issue 23.1, 23.3): typing
 * needs a task id, and what is waited on is long-lived. wait_for is checked here, before anything
 * runs or anyone is asked.
 */
export function terminalInput(input: BashToolInput): BashToolInput {
  if (input.wait_for !== undefined) {
    try {
      parseWaitFor(input.wait_for)
    } catch (error) {
      throw new WorkbenchError(
        'invalid_input',
        (error as Error).message.replace(/^wait_for:? ?/, ''),
        'wait_for',
      )
    }
  }
  if (!input.tty && input.wait_for === undefined) return input
  return { ...input, run_in_background: true }
}
