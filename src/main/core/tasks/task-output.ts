import { setTimeout as sleep } from 'node:timers/promises'
import { TaskError, taskNotFound } from './task-error'
import { projectTaskOutput, TASK_OUTPUT_DEFAULT_CHARS } from './task-output-projection'
import type { TaskRegistry } from './task-registry'
import { isTerminal, type TaskInfo } from './task-types'

/** seed 003 TaskOutput: block by default, wait up to 30 s (at most 10 min), polling every 100 ms. */
export const TASK_OUTPUT_DEFAULT_TIMEOUT_MS = 30_000
export const TASK_OUTPUT_MAX_TIMEOUT_MS = 600_000
export const TASK_OUTPUT_POLL_MS = 100

export interface TaskOutputInput {
  task_id: string
  block?: boolean
  timeout?: number
}

export interface TaskOutputResult {
  /** success: a terminal state was read; not_ready: block=false and still running; timeout: still running. */
  retrieval_status: 'success' | 'not_ready' | 'timeout'
  task: {
    task_id: string
    status: TaskInfo['status']
    command: string
    exit_code: number | null
    output: string
    output_path: string
    truncated: boolean
  }
}

export interface TaskOutputOptions {
  /** When given, a task of another session is reported as not found. */
  sessionId?: string
  signal?: AbortSignal
  /** resolveTaskMaxOutputLength(env); default 32000. */
  maxChars?: number
}

export async function readTaskOutput(
  registry: TaskRegistry,
  input: TaskOutputInput,
  options: TaskOutputOptions = {},
): Promise<TaskOutputResult> {
  const block = input.block ?? true
  const timeoutMs = input.timeout ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > TASK_OUTPUT_MAX_TIMEOUT_MS) {
    throw new TaskError(
      'invalid_input',
      `timeout must be an integer from 0 to ${TASK_OUTPUT_MAX_TIMEOUT_MS} ms, got ${input.timeout}`,
    )
  }
  const owned = (task: TaskInfo | null): TaskInfo => {
    if (!task || (options.sessionId !== undefined && task.sessionId !== options.sessionId)) {
      throw taskNotFound(input.task_id)
    }
    return task
  }
  let task = owned(registry.get(input.task_id))
  let status: TaskOutputResult['retrieval_status'] = 'success'
  if (!isTerminal(task.status)) {
    if (!block) status = 'not_ready'
    else {
      const until = Date.now() + timeoutMs
      while (!isTerminal(task.status) && Date.now() < until) {
        options.signal?.throwIfAborted()
        await sleep(Math.min(TASK_OUTPUT_POLL_MS, Math.max(0, until - Date.now())), undefined, {
          signal: options.signal,
        })
        task = owned(registry.get(input.task_id))
      }
      if (!isTerminal(task.status)) status = 'timeout'
    }
  }
  const projected = await projectTaskOutput(
    task,
    registry.outputFile(task.taskId),
    options.maxChars ?? TASK_OUTPUT_DEFAULT_CHARS,
  )
  // Project, then check the abort, then mark: an aborted read must not swallow the completion notice.
  options.signal?.throwIfAborted()
  if (isTerminal(task.status)) registry.markNotified(task.taskId)
  return {
    retrieval_status: status,
    task: {
      task_id: task.taskId,
      status: task.status,
      command: task.command,
      exit_code: task.exitCode,
      output: projected.text,
      output_path: task.outputPath,
      truncated: projected.truncated,
    },
  }
}
