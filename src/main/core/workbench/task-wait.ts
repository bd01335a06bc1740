import type { TaskWaitResult } from '../../../shared/ipc/domains/tasks'
import { taskNotFound } from '../tasks/task-error'
import { readTaskOutput, TASK_OUTPUT_DEFAULT_TIMEOUT_MS } from '../tasks/task-output'
import type { TaskRegistry } from '../tasks/task-registry'
import { agentFamily } from '../sessions/agent-runs'
import type { BashCallService, PromisedTask } from './bash-call-service'
import type { KeptDecisions, KeptRecord } from './kept-decisions'
import type { SessionService } from './session-service'

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
  services: { bash: BashCallService; tasks: TaskRegistry; sessions: SessionService; kept: KeptDecisions },
  input: TaskWaitInput,
  signal?: AbortSignal,
): Promise<TaskWaitResult> {
  const block = input.block ?? true
  const timeoutMs = input.timeoutMs ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS
  const until = Date.now() + timeoutMs
  // Issue 22.5: a kept decision is this caller's too when it is the same agent in the same folder.
  const kept = services.kept.get(input.taskId)
  const caller = services.sessions.get(input.sessionId).record
  const inherits =
    kept !== null &&
    caller.agent !== undefined &&
    agentFamily(caller.agent.name) === kept.agent &&
    caller.workspace === kept.workspace
  const promised = services.bash.promisedTask(input.taskId)
  if (promised) {
    if (promised.sessionId !== input.sessionId && !inherits) throw taskNotFound(input.taskId)
    if (promised.state === 'waiting' && block) await decidedWithin(promised, timeoutMs, signal)
    if (promised.state !== 'started') return promisedView(promised, block)
  } else if (inherits && kept.state !== 'started') {
    // Shellgate restarted since, or the person answered while no run was reading: what was kept.
    return keptResult(kept)
  }
  const owner = inherits ? kept.sessionId : input.sessionId
  if (inherits && !services.tasks.get(input.taskId)) return keptResult(kept)
  const read = await readTaskOutput(
    services.tasks,
    {
      task_id: input.taskId,
      block,
      timeout: Math.max(0, until - Date.now()),
      ...(input.since !== undefined ? { since: input.since } : {}),
      ...(input.waitFor !== undefined ? { wait_for: input.waitFor } : {}),
    },
    { sessionId: owner, ...(signal ? { signal } : {}) },
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

function keptResult(kept: KeptRecord): TaskWaitResult {
  const status =
    kept.state === 'started'
      ? (kept.outcome?.status ?? 'lost')
      : kept.state === 'waiting'
        ? 'waiting_for_approval'
        : kept.state
  const output =
    kept.state === 'denied'
      ? (kept.message ?? 'Denied by the person.')
      : kept.state === 'waiting'
        ? `Still waiting for the person's approval in Shellgate; nothing has run. It will run as task ${kept.taskId} if they allow it.`
        : kept.state === 'withdrawn'
          ? (kept.message ?? kept.outcome?.outputTail ?? 'It was withdrawn before it ran; nothing ran.')
          : (kept.outcome?.outputTail ??
            'It ran, but Shellgate restarted before it ended; its output is no longer known.')
  return {
    retrievalStatus: kept.state === 'waiting' ? 'not_ready' : 'success',
    task: {
      taskId: kept.taskId,
      status,
      command: kept.command,
      exitCode: kept.outcome?.exitCode ?? null,
      output,
      outputPath: null,
      truncated: false,
      message: kept.state === 'denied' ? kept.message : null,
      tty: false,
      nextSince: null,
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
