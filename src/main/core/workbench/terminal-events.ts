import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { EventName, EventPayload } from '../../../shared/ipc/define'
import type { TaskPorts } from '../tasks/task-ports'
import type { TaskRegistry } from '../tasks/task-registry'
import type { TerminalTasks } from '../tasks/terminal-tasks'
import { toTaskView } from './task-view'

type Emit = <E extends EventName<ShellgateContract>>(
  name: E,
  payload: EventPayload<ShellgateContract, E>,
) => void

/** A terminal's output is sent to the desk in batches this far apart: a flood is 60 events a second, not one per read. */
export const TERMINAL_EVENT_BATCH_MS = 16
/** One event carries at most this; the desk reads the rest with tasks.terminalRead. */
export const TERMINAL_EVENT_MAX_BYTES = 256 * 1024

/**
 * The desk's live terminal (issue 23.2): raw output of each terminal task as it arrives, by byte
 * offset, so the view can tell a gap and catch up; what was typed, and port changes. Agents never
 * get these events (the session-ownership filter lets only its own list through).
 */
export function forwardTerminalEvents(input: {
  emit: Emit
  tasks: TaskRegistry
  terminals: TerminalTasks
  ports: TaskPorts
}): () => void {
  const { emit, tasks } = input
  const followed = new Map<string, () => void>()
  const follow = (taskId: string, sessionId: string) => {
    const terminal = tasks.terminal(taskId)
    if (!terminal || followed.has(taskId)) return
    // The terminal's file starts empty and only the terminal writes it, so bytes seen = offset.
    let offset = 0
    let pending: Buffer[] = []
    let pendingBytes = 0
    let timer: NodeJS.Timeout | null = null
    const flush = () => {
      timer = null
      if (pendingBytes === 0) return
      const data = Buffer.concat(pending)
      const from = offset
      offset += data.length
      pending = []
      pendingBytes = 0
      if (data.length > TERMINAL_EVENT_MAX_BYTES) return
      emit('tasks.terminalData', { taskId, sessionId, from, data: data.toString('base64') })
    }
    const stopData = terminal.onData((chunk) => {
      pending.push(chunk)
      pendingBytes += chunk.length
      // A gap the desk will fill with a read: keep counting bytes, stop holding them.
      if (pendingBytes > TERMINAL_EVENT_MAX_BYTES) {
        offset += pendingBytes
        pending = []
        pendingBytes = 0
      }
      timer ??= setTimeout(flush, TERMINAL_EVENT_BATCH_MS)
    })
    const stopClose = terminal.onClose(() => {
      if (timer) clearTimeout(timer)
      flush()
      stop()
    })
    const stop = () => {
      stopData()
      stopClose()
      followed.delete(taskId)
    }
    followed.set(taskId, stop)
  }
  const unsubscribers = [
    tasks.onEvent((event) => {
      if (event.type === 'started') follow(event.task.taskId, event.task.sessionId)
    }),
    input.terminals.onInput((entry) => emit('tasks.input', entry)),
    input.ports.onChange((taskId) => {
      const task = tasks.get(taskId)
      if (task) emit('tasks.updated', toTaskView(task, input.ports.ports(taskId)))
    }),
  ]
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe()
    for (const stop of followed.values()) stop()
  }
}
