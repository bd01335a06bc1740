import type { TaskWaitResult } from '../../../shared/ipc/domains/tasks'
import { taskNotFound } from '../tasks/task-error'
import { readTaskOutput, TASK_OUTPUT_DEFAULT_TIMEOUT_MS } from '../tasks/task-output'
import type { TaskRegistry } from '../tasks/task-registry'
import type { BashCallService, PromisedTask } from './bash-call-service'

export interface TaskWaitInput {
  sessionId: string
  taskId: string
  block?: boolean
  timeoutMs?: number
  since?: number
  waitFor?: string
}

/**
 * seed 003 TaskOutput for one session's task, and for a task promised while the person decides:
 * it waits for their answer first (denied → their message), then for the task itself, all within
 * one timeout.
 */
export async function waitForTask(
  services: { bash: BashCallService; tasks: TaskRegistry },
  input: TaskWaitInput,
  signal?: AbortSignal,
): Promise<TaskWaitResult> {
  const block = input.block ?? true
  const timeoutMs = input.timeoutMs ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS
  const until = Date.now() + timeoutMs
  const promised = services.bash.promisedTask(input.taskId)
  if (promised) {
    if (promised.sessionId !== input.sessionId) throw taskNotFound(input.taskId)
    if (promised.state === 'waiting' && block) await decidedWithin(promised, timeoutMs, signal)
    if (promised.state !== 'started') return promisedView(promised, block)
  }
  const read = await readTaskOutput(
    services.tasks,
    {
      task_id: input.taskId,
      block,
      timeout: Math.max(0, until - Date.now()),
      ...(input.since !== undefined ? { since: input.since } : {}),
      ...(input.waitFor !== undefined ? { wait_for: input.waitFor } : {}),
    },
    { sessionId: input.sessionId, ...(signal ? { signal } : {}) },
  )
  return {
    retrievalStatus: read.retrieval_status,
    task: {
      taskId: read.task.task_id,
      status: read.task.status,
      command: read.task.command,
      exitCode: read.task.exit_code,
      output: read.task.output,
      outputPath: read.task.output_path,
      truncated: read.task.truncated,
      message: null,
      tty: read.task.tty,
      nextSince: read.task.next_since,
      ...(read.task.matched !== undefined ? { matched: read.task.matched } : {}),
    },
  }
}

function promisedView(promised: PromisedTask, block: boolean): TaskWaitResult {
  const { call } = promised
  const waiting = promised.state === 'waiting'
  return {
    retrievalStatus: waiting ? (block ? 'timeout' : 'not_ready') : 'success',
    task: {
      taskId: promised.taskId,
      // A promise that ended as a refused call was withdrawn, not denied by the person.
      status: waiting
        ? 'waiting_for_approval'
        : promised.state === 'ended' && call.status === 'denied'
          ? 'withdrawn'
          : call.status,
      command: promised.command,
      exitCode: call.exitCode,
      output: waiting
        ? `Still waiting for the person's approval in Shellgate; nothing has run. It will run as task ${promised.taskId} if they allow it.`
        : (promised.message ?? call.content),
      outputPath: call.outputPath,
      truncated: false,
      message: promised.state === 'denied' ? promised.message : null,
      tty: false,
      nextSince: null,
    },
  }
}

async function decidedWithin(promised: PromisedTask, ms: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  await Promise.race([
    promised.decided,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms)
    }),
    new Promise<void>((_, reject) => {
      onAbort = () => reject(signal?.reason ?? new Error('cancelled'))
      if (signal?.aborted) onAbort()
      else signal?.addEventListener('abort', onAbort, { once: true })
    }),
  ]).finally(() => {
    clearTimeout(timer)
    if (onAbort) signal?.removeEventListener('abort', onAbort)
  })
}
