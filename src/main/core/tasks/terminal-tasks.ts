import { randomUUID } from 'node:crypto'
import { isSecretMode, type TerminalHandle } from '../exec/terminal-types'
import { statOutputFile } from '../exec/output-file-read'
import { TaskError, taskNotFound } from './task-error'
import type { TaskRegistry } from './task-registry'
import { isTerminal, type TaskInfo } from './task-types'

/** One input is at most this: a paste, not a file (write files with commands). */
export const TASK_INPUT_MAX_BYTES = 64 * 1024
/** Keystrokes a person types in a row become one entry (and one audit line) until Enter or this pause. */
export const PERSON_INPUT_SEAL_MS = 2_000
/** The desk and the audit keep the last this many inputs of each task. */
export const TASK_INPUT_LOG_ENTRIES = 500

export type InputAuthor = 'agent' | 'person'

/** What was typed into a task, as the desk lists it; `text` is null when it was hidden. */
export interface TaskInputEntry {
  id: string
  taskId: string
  sessionId: string
  at: string
  by: InputAuthor
  bytes: number
  text: string | null
  /** Typed while the terminal did not echo and read whole lines (a password prompt): never logged or shown. */
  hidden: boolean
  closeStdin: boolean
  /** No more keystrokes join this entry; it is audited once, when sealed. */
  sealed: boolean
}

export interface TaskInputRequest {
  text: string
  closeStdin?: boolean
}

export interface TaskInputResult {
  entry: TaskInputEntry
  /** The output file's size just before the input was written: read from here to see the answer. */
  outputCursor: number
  task: TaskInfo
}

export interface TerminalTasks {
  /** Types into a running terminal task (the agent's `task_input`, the person's keystrokes). */
  input(
    taskId: string,
    request: TaskInputRequest,
    by: InputAuthor,
    sessionId?: string,
  ): Promise<TaskInputResult>
  inputs(taskId: string, sessionId?: string): TaskInputEntry[]
  resize(taskId: string, size: { cols: number; rows: number }, sessionId?: string): void
  /** Every new or grown entry; `sealed` entries are final. */
  onInput(listener: (entry: TaskInputEntry) => void): () => void
  dispose(): void
}

export interface TerminalTasksOptions {
  registry: TaskRegistry
  /** The person's idle limit (Settings): a terminal task with no input and no output this long is stopped. 0 = never. */
  idleLimitMs: () => number
  now?: () => number
}

interface TerminalRecord {
  terminal: TerminalHandle
  entries: TaskInputEntry[]
  lastActivity: number
  /** Writes go one at a time, each after its mode read, so keystrokes keep their order. */
  queue: Promise<unknown>
  sealTimer: NodeJS.Timeout | null
  idleTimer: NodeJS.Timeout | null
  unsubscribe: () => void
}

/**
 * The input channel of terminal tasks (issue 23.2, 23.4): who typed what and when, whether the
 * terminal hid it, and the idle limit. Before each write the terminal's mode is read; input typed
 * while echo is off in line mode is marked hidden and its text is dropped here, so no log, event
 * or screen can show it.
 */
export function createTerminalTasks(options: TerminalTasksOptions): TerminalTasks {
  const { registry } = options
  const now = options.now ?? Date.now
  const records = new Map<string, TerminalRecord>()
  const listeners = new Set<(entry: TaskInputEntry) => void>()
  const publish = (entry: TaskInputEntry) => {
    for (const listener of listeners) listener({ ...entry })
  }

  const seal = (record: TerminalRecord) => {
    if (record.sealTimer) clearTimeout(record.sealTimer)
    record.sealTimer = null
    const last = record.entries.at(-1)
    if (last && !last.sealed) {
      last.sealed = true
      publish(last)
    }
  }

  const armIdle = (taskId: string, record: TerminalRecord) => {
    if (record.idleTimer) clearTimeout(record.idleTimer)
    record.idleTimer = null
    const limit = options.idleLimitMs()
    if (!(limit > 0)) return
    const left = record.lastActivity + limit - now()
    record.idleTimer = setTimeout(
      () => {
        record.idleTimer = null
        if (now() - record.lastActivity >= options.idleLimitMs() && options.idleLimitMs() > 0)
          void registry.stop(taskId, 'idle')
        else armIdle(taskId, record)
      },
      Math.max(0, left),
    )
    record.idleTimer.unref?.()
  }

  const track = (taskId: string, terminal: TerminalHandle) => {
    if (records.has(taskId)) return
    const record: TerminalRecord = {
      terminal,
      entries: [],
      lastActivity: now(),
      queue: Promise.resolve(),
      sealTimer: null,
      idleTimer: null,
      unsubscribe: () => undefined,
    }
    record.unsubscribe = terminal.onData(() => {
      record.lastActivity = now()
    })
    records.set(taskId, record)
    armIdle(taskId, record)
  }

  const stopRegistry = registry.onEvent((event) => {
    const { taskId } = event.task
    if (event.type === 'started') {
      const terminal = registry.terminal(taskId)
      if (terminal) track(taskId, terminal)
      return
    }
    const record = records.get(taskId)
    if (!record) return
    seal(record)
    if (record.idleTimer) clearTimeout(record.idleTimer)
    record.idleTimer = null
    record.unsubscribe()
  })

  const recordOf = (taskId: string, sessionId: string | undefined) => {
    const task = registry.get(taskId)
    if (!task || (sessionId !== undefined && task.sessionId !== sessionId)) throw taskNotFound(taskId)
    const record = records.get(taskId)
    if (!record) {
      throw new TaskError(
        'invalid_input',
        `Task ${taskId} has no terminal, so it cannot take input (its stdin is /dev/null). Run the command with tty: true to type into it.`,
      )
    }
    return { task, record }
  }

  const write = async (
    taskId: string,
    task: TaskInfo,
    record: TerminalRecord,
    request: TaskInputRequest,
    by: InputAuthor,
  ): Promise<TaskInputResult> => {
    if (isTerminal(registry.get(taskId)?.status ?? 'stopped') || record.terminal.closed) {
      throw new TaskError(
        'invalid_input',
        `Task ${taskId} is not running (${registry.get(taskId)?.status}); nothing was typed`,
      )
    }
    // Typing counts as activity from the moment it is asked for, not once the mode read answers.
    record.lastActivity = now()
    const hidden = isSecretMode(await record.terminal.mode())
    const file = registry.outputFile(taskId)
    const outputCursor = file ? ((await statOutputFile(file))?.size ?? 0) : 0
    // An agent's "\n" is the Enter key, which terminals send as "\r" (a raw-mode prompt waits for it).
    const keys = by === 'agent' ? request.text.replace(/\r?\n/g, '\r') : request.text
    const typed = keys + (request.closeStdin ? '\u0004' : '')
    if (typed !== '') record.terminal.write(typed)
    record.lastActivity = now()
    armIdle(taskId, record)
    const entry = note(record, task, request, by, hidden)
    return { entry: { ...entry }, outputCursor, task: registry.get(taskId) ?? task }
  }

  const note = (
    record: TerminalRecord,
    task: TaskInfo,
    request: TaskInputRequest,
    by: InputAuthor,
    hidden: boolean,
  ): TaskInputEntry => {
    const bytes = Buffer.byteLength(request.text)
    const last = record.entries.at(-1)
    const joins = by === 'person' && last && !last.sealed && last.by === 'person' && last.hidden === hidden
    let entry: TaskInputEntry
    if (joins) {
      entry = last
      entry.bytes += bytes
      if (entry.text !== null) entry.text += request.text
    } else {
      seal(record)
      entry = {
        id: randomUUID(),
        taskId: task.taskId,
        sessionId: task.sessionId,
        at: new Date(now()).toISOString(),
        by,
        bytes,
        text: hidden ? null : request.text,
        hidden,
        closeStdin: request.closeStdin === true,
        sealed: by === 'agent',
      }
      record.entries.push(entry)
      if (record.entries.length > TASK_INPUT_LOG_ENTRIES) record.entries.shift()
    }
    if (by === 'person' && !entry.sealed) {
      if (/[\r\n]/.test(request.text) || request.closeStdin) entry.sealed = true
      else {
        if (record.sealTimer) clearTimeout(record.sealTimer)
        record.sealTimer = setTimeout(() => seal(record), PERSON_INPUT_SEAL_MS)
        record.sealTimer.unref?.()
      }
    }
    publish(entry)
    return entry
  }

  return {
    input(taskId, request, by, sessionId) {
      if (typeof request.text !== 'string')
        return Promise.reject(new TaskError('invalid_input', 'text must be a string'))
      if (Buffer.byteLength(request.text) > TASK_INPUT_MAX_BYTES) {
        return Promise.reject(new TaskError('invalid_input', `text is over ${TASK_INPUT_MAX_BYTES} bytes`))
      }
      if (request.text === '' && !request.closeStdin) {
        return Promise.reject(
          new TaskError('invalid_input', 'text is empty and close_stdin is not set: nothing to type'),
        )
      }
      let found: ReturnType<typeof recordOf>
      try {
        found = recordOf(taskId, sessionId)
      } catch (error) {
        return Promise.reject(error)
      }
      const { task, record } = found
      const result = record.queue.then(() => write(taskId, task, record, request, by))
      record.queue = result.catch(() => undefined)
      return result
    },
    inputs(taskId, sessionId) {
      const task = registry.get(taskId)
      if (!task || (sessionId !== undefined && task.sessionId !== sessionId)) throw taskNotFound(taskId)
      return (records.get(taskId)?.entries ?? []).map((entry) => ({ ...entry }))
    },
    resize(taskId, size, sessionId) {
      const { record } = recordOf(taskId, sessionId)
      record.terminal.resize(size.cols, size.rows)
    },
    onInput(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      stopRegistry()
      for (const record of records.values()) {
        seal(record)
        if (record.idleTimer) clearTimeout(record.idleTimer)
        record.unsubscribe()
      }
      listeners.clear()
    },
  }
}
