import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { readOutputBytes } from '../../core/tasks/output-bytes'
import { taskNotFound } from '../../core/tasks/task-error'
import { toTaskView } from '../../core/workbench/task-view'
import type { Handlers } from '../dispatcher'
import type { SessionOwnership } from '../session-ownership'

/** The terminal view catches up at most this much per read (it reads again for more). */
const TERMINAL_READ_MAX_BYTES = 1024 * 1024

type TerminalHandlers = Pick<
  Handlers<ShellgateContract>,
  | 'tasks.input'
  | 'tasks.inputs'
  | 'tasks.resize'
  | 'tasks.terminalRead'
  | 'tasks.openPort'
  | 'tasks.closePort'
>

/**
 * Terminal tasks over the contract (issue 23): an agent types into its own session's tasks; the
 * person types into any, reads the raw terminal, resizes it and opens its ports. Who typed is
 * the connection's role, never a field the caller sets.
 */
export function terminalHandlers(core: Core, ownership: SessionOwnership): TerminalHandlers {
  const owned = (sessionId: string, taskId: string) => {
    const task = core.tasks.get(taskId)
    if (!task || task.sessionId !== sessionId) throw taskNotFound(taskId)
    return task
  }
  const view = (taskId: string) => {
    const task = core.tasks.get(taskId)
    if (!task) throw taskNotFound(taskId)
    return toTaskView(task, core.ports.ports(taskId))
  }
  return {
    'tasks.input': async ({ sessionId, taskId, text, closeStdin }, context) => {
      ownership.require(context, sessionId, 'tasks.input')
      const result = await core.terminals.input(
        taskId,
        { text, ...(closeStdin ? { closeStdin } : {}) },
        context.role === 'agent' ? 'agent' : 'person',
        sessionId,
      )
      return { bytes: result.entry.bytes, hidden: result.entry.hidden, outputCursor: result.outputCursor }
    },
    'tasks.inputs': ({ sessionId, taskId }) => core.terminals.inputs(taskId, sessionId),
    'tasks.resize': ({ sessionId, taskId, cols, rows }) => {
      core.terminals.resize(taskId, { cols, rows }, sessionId)
      return { ok: true as const }
    },
    'tasks.terminalRead': async ({ sessionId, taskId, from }) => {
      owned(sessionId, taskId)
      const file = core.tasks.outputFile(taskId)
      const size = core.tasks.terminal(taskId)?.size
      if (!file) return { taskId, sessionId, from: 0, data: '', size: 0 }
      const read = await readOutputBytes(file, from ?? 0, TERMINAL_READ_MAX_BYTES)
      if (read.refused) throw new RpcError('denied', `tasks.terminalRead: ${read.refused}`)
      return {
        taskId,
        sessionId,
        from: read.from,
        data: read.bytes.toString('base64'),
        size: read.size,
        ...(size ? { cols: size.cols, rows: size.rows } : {}),
      }
    },
    'tasks.openPort': async ({ sessionId, taskId, port }) => {
      owned(sessionId, taskId)
      await core.ports.open(taskId, port)
      return view(taskId)
    },
    'tasks.closePort': async ({ sessionId, taskId, port }) => {
      owned(sessionId, taskId)
      await core.ports.close(taskId, port)
      return view(taskId)
    },
  }
}
