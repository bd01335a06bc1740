import type { ExecutionPort, ExecutionResult } from '../../exec/types'
import { readCapturedCwd } from '../../shell/cwd-capture'
import { runWithBackgroundLifecycle } from '../../tasks/background-lifecycle'
import type { TaskRegistry } from '../../tasks/task-registry'
import { isTerminal, type TaskInfo } from '../../tasks/task-types'
import { type BashRequestOptions, buildBashRequest } from './bash-run-request'

/**
 * run_in_background (seed 003): the command is committed to the task registry as soon as it
 * exists, with no timeout and all output in its file. The caller gets the task at once and, if it
 * wants, a promise of the task's end.
 */

export interface BackgroundBashOptions extends Omit<BashRequestOptions, 'timeoutMs' | 'signal'> {
  port: ExecutionPort
  registry: TaskRegistry
  sessionId: string
  description?: string
}

export type BackgroundBashStart =
  | {
      kind: 'backgrounded'
      taskId: string
      outputPath: string
      pid: number | null
      /** Settles with the task's final state, however it ends (exit, TaskStop, output cap). */
      done: Promise<TaskInfo>
    }
  /** It never became a task (it could not start): an ordinary result. */
  | { kind: 'foreground'; result: ExecutionResult; outputPath: string }

export async function startBashBackground(options: BackgroundBashOptions): Promise<BackgroundBashStart> {
  const { request, outputPath, cwdFile } = await buildBashRequest({ ...options, timeoutMs: 0 })
  const outcome = await runWithBackgroundLifecycle(
    options.port,
    options.registry,
    {
      command: request.command,
      cwd: request.cwd,
      env: request.env,
      ...(request.sandbox ? { sandbox: request.sandbox } : {}),
    },
    { mode: 'explicit' },
    { sessionId: options.sessionId, outputPath, description: options.description },
  )
  if (outcome.kind === 'foreground') {
    await readCapturedCwd(cwdFile)
    return { kind: 'foreground', result: outcome.result, outputPath }
  }
  const { taskId } = outcome.task
  const done = taskEnd(options.registry, taskId).finally(() => readCapturedCwd(cwdFile))
  return { kind: 'backgrounded', taskId, outputPath, pid: outcome.task.pid, done }
}

/** Resolves with the task once it has ended (at once when it already has). */
export function taskEnd(registry: TaskRegistry, taskId: string): Promise<TaskInfo> {
  return new Promise((resolve) => {
    const stopListening = registry.onEvent((event) => {
      if (event.type === 'completed' && event.task.taskId === taskId) {
        stopListening()
        resolve(event.task)
      }
    })
    // It may already have ended between being committed and this subscription.
    const now = registry.get(taskId)
    if (now && isTerminal(now.status)) {
      stopListening()
      resolve(now)
    }
  })
}
