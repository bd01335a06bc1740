import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { readOutputTail } from '../../core/tasks/output-file-range'
import { waitForTask } from '../../core/workbench/task-wait'
import { toTaskView } from '../../core/workbench/task-view'
import type { Handlers } from '../dispatcher'

/** The full-output view shows at most this much of a call's file; the path is given for the rest. */
const CALL_OUTPUT_VIEW_BYTES = 4 * 1024 * 1024

type SessionHandlers = Pick<
  Handlers<ShellgateContract>,
  | 'sessions.list'
  | 'sessions.create'
  | 'sessions.close'
  | 'bash.run'
  | 'bash.cancel'
  | 'bash.background'
  | 'bash.history'
  | 'bash.output'
  | 'approvals.list'
  | 'approvals.answer'
  | 'tasks.list'
  | 'tasks.tail'
  | 'tasks.stop'
  | 'tasks.stopAll'
  | 'tasks.wait'
>

export function sessionHandlers(core: Core): SessionHandlers {
  return {
    'sessions.list': () => core.sessions.list(),
    'sessions.create': ({ title }) => core.sessions.create(title),
    'sessions.close': async ({ sessionId }) => {
      await core.closeSession(sessionId)
      return { ok: true as const }
    },
    'bash.run': ({ sessionId, callId, answerWithinMs, ...input }, context) =>
      core.bash.run(sessionId, input, {
        ...(callId ? { callId } : {}),
        // A caller on a clock is a live client: its leaving cancels what has not answered.
        ...(answerWithinMs ? { answerWithinMs, signal: context.signal } : {}),
      }),
    'bash.cancel': ({ sessionId, callId }) => core.bash.cancel(sessionId, callId),
    'bash.background': ({ sessionId, callId }) => core.bash.background(sessionId, callId),
    'bash.history': ({ sessionId }) => core.sessions.get(sessionId).history.list(),
    'bash.output': async ({ sessionId, callId }) => {
      const call = core.sessions.get(sessionId).history.get(callId)
      if (!call) throw new RpcError('invalid_input', `bash.output: no call "${callId}" in this session`)
      if (!call.outputPath) return { text: '', totalBytes: 0, skippedBytes: 0, path: null }
      const slice = await readOutputTail(call.outputPath, CALL_OUTPUT_VIEW_BYTES)
      return { text: slice.text, totalBytes: slice.size, skippedBytes: slice.offset, path: call.outputPath }
    },
    'approvals.list': () => core.approvals.list(),
    'approvals.answer': async ({ id, answer }) => {
      const result = await core.approvals.answer(id, answer, 'user')
      if (!result.ok) {
        const where = result.field ? `${result.field}: ` : ''
        throw new RpcError(
          result.code === 'persist_failed' ? 'internal' : 'invalid_input',
          `approvals.answer: ${where}${result.message}`,
        )
      }
      return { ok: true as const }
    },
    'tasks.list': async () => (await core.tasks.list()).map(toTaskView).reverse(),
    'tasks.tail': async ({ sessionId, taskId }) => {
      const slice = await core.tasks.readTail(taskId, sessionId)
      const task = core.tasks.get(taskId)
      return {
        text: slice.text,
        totalBytes: slice.size,
        skippedBytes: slice.offset,
        path: task?.outputPath ?? null,
      }
    },
    'tasks.stop': async ({ taskId }) => {
      const result = await core.tasks.stop(taskId, 'user')
      if (!result.ok) throw new RpcError('invalid_input', `tasks.stop: ${result.message}`)
      return toTaskView(result.task)
    },
    'tasks.wait': (input, context) => waitForTask(core, input, context.signal),
    'tasks.stopAll': async () => {
      const results = await core.tasks.stopAll('user')
      return { stopped: results.filter((result) => result.ok).length }
    },
  }
}
