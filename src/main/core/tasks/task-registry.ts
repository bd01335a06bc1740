import { randomBytes } from 'node:crypto'
import { statOutputFile } from '../exec/output-file-read'
import type { TerminalHandle } from '../exec/terminal-types'
import type { ExecutionResult, FileIdentity, OutputFileRef } from '../exec/types'
import { type OutputSlice, readOutputTail } from './output-file-range'
import { taskNotFound } from './task-error'
import { isTerminal, type TaskEvent, type TaskInfo, type TaskStatus, type TaskStopper } from './task-types'

/** seed 003: the UI's task view reads only the last 8192 bytes of the output file. */
export const UI_TAIL_BYTES = 8_192
/** seed 003 TaskStop: its own timeout, not overridable. */
export const TASK_STOP_TIMEOUT_MS = 10_000

/** What the background lifecycle hands over at the moment it commits a process to the background. */
export interface TaskRegistration {
  taskId: string
  sessionId: string
  command: string
  description: string | null
  outputPath: string
  /** The output file the executor created at `outputPath`; null when it was never created. */
  outputIdentity: FileIdentity | null
  pid: number | null
  startedAt: number
  /** Aborting it terminates the whole process tree (the execution port's contract). */
  controller: AbortController
  /** The execution port's promise; it settles when the process is gone. */
  settled: Promise<ExecutionResult>
  /** The run's SHELLGATE_RUN_ID: finds the task's processes that left its tree (ports, forwards). */
  runId?: string | null
  /** A terminal run's handle: input goes here (issue 23.2); absent for a piped run. */
  terminal?: TerminalHandle | null
  /** Ports the sandbox's own bridges listen on inside (its proxy, allowed host ports): never the task's. */
  sandboxPorts?: number[]
}

export type StopResult =
  | {
      ok: true
      task: TaskInfo /** false when the task was still running at the 10 s bound */
      settled: boolean
    }
  | { ok: false; code: 'not_found' | 'not_running' | 'invalid_input'; message: string; task?: TaskInfo }

export interface TaskRegistry {
  newTaskId(): string
  register(task: TaskRegistration): TaskInfo
  /** A snapshot without touching the disk (bytes as last known). */
  get(taskId: string): TaskInfo | null
  /** Fresh: bytes and last-output age from the output file. */
  info(taskId: string): Promise<TaskInfo | null>
  /** Every task (or one session's), oldest first, with fresh sizes. */
  list(sessionId?: string): Promise<TaskInfo[]>
  /** Terminates the tree and records who did it; waits at most `timeoutMs` for the process to go. */
  stop(taskId: string, by: TaskStopper, timeoutMs?: number): Promise<StopResult>
  stopAll(by: TaskStopper, sessionId?: string): Promise<StopResult[]>
  /** The task's output file, for readers that must not follow a swapped path; null if none was created. */
  outputFile(taskId: string): OutputFileRef | null
  /** A running or ended terminal task's handle; null for a piped task or an unknown id. */
  terminal(taskId: string): TerminalHandle | null
  /** The task's run tag and root pid, to find its processes; null for an unknown id. */
  processOf(taskId: string): { pid: number | null; runId: string | null; sandboxPorts: number[] } | null
  /** The UI's tail: only for the session that started the task. */
  readTail(taskId: string, sessionId: string, bytes?: number): Promise<OutputSlice>
  /** The file cap was reached: kill the task and report it as failed for that reason. */
  abortForOutputLimit(taskId: string): void
  markNotified(taskId: string): void
  onEvent(listener: (event: TaskEvent) => void): () => void
  /** Stops every running task (as the user) and waits for them, each bounded. */
  dispose(): Promise<void>
}

interface TaskRecord extends Omit<TaskRegistration, 'settled' | 'startedAt'> {
  startedAt: number
  status: TaskStatus
  result: ExecutionResult | null
  endedAt: number | null
  bytes: number
  stoppedBy: TaskStopper | null
  outputLimitReached: boolean
  notified: boolean
  failure: string | null
  done: Promise<void>
}

export function createTaskRegistry(options: { now?: () => number } = {}): TaskRegistry {
  const now = options.now ?? Date.now
  const records = new Map<string, TaskRecord>()
  const listeners = new Set<(event: TaskEvent) => void>()

  const emit = (event: TaskEvent) => {
    for (const listener of listeners) listener(event)
  }

  const snapshot = (
    record: TaskRecord,
    bytes = record.bytes,
    lastOutputAt: number | null = null,
  ): TaskInfo => ({
    taskId: record.taskId,
    sessionId: record.sessionId,
    command: record.command,
    description: record.description,
    status: record.status,
    pid: record.pid,
    outputPath: record.outputPath,
    startedAt: new Date(record.startedAt).toISOString(),
    endedAt: record.endedAt === null ? null : new Date(record.endedAt).toISOString(),
    elapsedMs: (record.endedAt ?? now()) - record.startedAt,
    bytes,
    lastOutputAt: lastOutputAt === null ? null : new Date(lastOutputAt).toISOString(),
    lastOutputAgeMs: lastOutputAt === null ? null : Math.max(0, now() - lastOutputAt),
    exitCode: record.result?.exitCode ?? null,
    exitSignal: record.result?.exitSignal ?? null,
    stoppedBy: record.stoppedBy,
    outputLimitReached: record.outputLimitReached,
    errorMessage: record.failure ?? record.result?.errorMessage ?? null,
    notified: record.notified,
    tty: Boolean(record.terminal),
  })

  const fresh = async (record: TaskRecord): Promise<TaskInfo> => {
    // Never the size of whatever the command may have put at the path instead (issue 15.3).
    const file = outputFileOf(record)
    const stats = file ? await statOutputFile(file) : null
    if (!stats) return snapshot(record)
    record.bytes = Math.max(record.bytes, stats.size)
    return snapshot(record, stats.size, stats.size > 0 ? stats.mtimeMs : null)
  }

  const outputFileOf = (record: TaskRecord): OutputFileRef | null =>
    record.outputIdentity ? { path: record.outputPath, identity: record.outputIdentity } : null

  const complete = (record: TaskRecord, result: ExecutionResult) => {
    record.result = result
    record.endedAt = now()
    record.bytes = Math.max(record.bytes, result.totalBytes)
    record.outputLimitReached ||= result.outputLimitReached
    if (record.stoppedBy) record.status = 'stopped'
    // Our own abort for the cap reads as a cancel to the port; to the user it is a failure.
    else if (record.outputLimitReached && result.status === 'cancelled') record.status = 'failed'
    else record.status = result.status
    emit({ type: 'completed', task: snapshot(record) })
  }

  const fail = (record: TaskRecord, message: string) => {
    record.status = 'failed'
    record.endedAt = now()
    record.failure = message
    emit({ type: 'completed', task: snapshot(record) })
  }

  const stop = async (
    taskId: string,
    by: TaskStopper,
    timeoutMs = TASK_STOP_TIMEOUT_MS,
  ): Promise<StopResult> => {
    const record = records.get(taskId)
    if (!record) return { ok: false, code: 'not_found', message: taskNotFound(taskId).message }
    if (isTerminal(record.status)) {
      return {
        ok: false,
        code: 'not_running',
        message: `Task ${taskId} is not running (${record.status})`,
        task: snapshot(record),
      }
    }
    record.stoppedBy ??= by
    record.controller.abort('stopped')
    let timer: NodeJS.Timeout | undefined
    const settled = await Promise.race([
      record.done.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs)
      }),
    ])
    clearTimeout(timer)
    return { ok: true, task: await fresh(record), settled }
  }

  return {
    newTaskId() {
      let id: string
      do id = randomBytes(4).toString('hex')
      while (records.has(id))
      return id
    },

    register(task) {
      if (records.has(task.taskId)) throw new Error(`task ${task.taskId} is already registered`)
      const record: TaskRecord = {
        ...task,
        status: 'running',
        result: null,
        endedAt: null,
        bytes: 0,
        stoppedBy: null,
        outputLimitReached: false,
        notified: false,
        failure: null,
        done: Promise.resolve(),
      }
      record.done = task.settled.then(
        (result) => complete(record, result),
        // The port promises never to reject; if it does, the task must still end visibly.
        (error: unknown) => fail(record, `the execution port failed: ${(error as Error).message}`),
      )
      records.set(task.taskId, record)
      const info = snapshot(record)
      emit({ type: 'started', task: info })
      return info
    },

    get(taskId) {
      const record = records.get(taskId)
      return record ? snapshot(record) : null
    },

    async info(taskId) {
      const record = records.get(taskId)
      return record ? fresh(record) : null
    },

    list(sessionId) {
      const wanted = [...records.values()].filter((r) => sessionId === undefined || r.sessionId === sessionId)
      return Promise.all(wanted.map(fresh))
    },

    stop,

    stopAll(by, sessionId) {
      const running = [...records.values()].filter(
        (r) => r.status === 'running' && (sessionId === undefined || r.sessionId === sessionId),
      )
      return Promise.all(running.map((r) => stop(r.taskId, by)))
    },

    outputFile(taskId) {
      const record = records.get(taskId)
      return record ? outputFileOf(record) : null
    },

    terminal(taskId) {
      return records.get(taskId)?.terminal ?? null
    },

    processOf(taskId) {
      const record = records.get(taskId)
      return record
        ? { pid: record.pid, runId: record.runId ?? null, sandboxPorts: record.sandboxPorts ?? [] }
        : null
    },

    async readTail(taskId, sessionId, bytes = UI_TAIL_BYTES) {
      const record = records.get(taskId)
      if (!record || record.sessionId !== sessionId) throw taskNotFound(taskId)
      const file = outputFileOf(record)
      if (!file) return { text: '', size: 0, offset: 0, omittedBytes: 0 }
      return readOutputTail(file, Math.min(bytes, UI_TAIL_BYTES))
    },

    abortForOutputLimit(taskId) {
      const record = records.get(taskId)
      if (!record || isTerminal(record.status)) return
      record.outputLimitReached = true
      record.controller.abort('output_limit')
    },

    markNotified(taskId) {
      const record = records.get(taskId)
      if (record && isTerminal(record.status)) record.notified = true
    },

    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    async dispose() {
      await Promise.all(
        [...records.values()].filter((r) => r.status === 'running').map((r) => stop(r.taskId, 'user')),
      )
    },
  }
}
