import type { ExecutionStatus } from '../exec/types'

/** The executor's statuses, plus `running` and `stopped` (TaskStop or the UI ended it). */
export type TaskStatus = 'running' | 'stopped' | ExecutionStatus

/** Who stopped a task: the model (`caller`), a person in the UI (`user`), or the idle limit (`idle`). */
export type TaskStopper = 'caller' | 'user' | 'idle'

/** A background task as the UI and the tools see it. Times are ISO strings; ages in ms. */
export interface TaskInfo {
  taskId: string
  sessionId: string
  command: string
  description: string | null
  status: TaskStatus
  pid: number | null
  outputPath: string
  startedAt: string
  endedAt: string | null
  elapsedMs: number
  /** Size of the output file so far. */
  bytes: number
  /** When the output file last grew, and how long ago (ms); null before any output. */
  lastOutputAt: string | null
  lastOutputAgeMs: number | null
  exitCode: number | null
  exitSignal: string | null
  stoppedBy: TaskStopper | null
  /** The output file reached its cap and the task was killed for it. */
  outputLimitReached: boolean
  errorMessage: string | null
  /** A terminal state was read through TaskOutput, so no completion notice is owed. */
  notified: boolean
  /** It runs on a pseudo-terminal: it takes input, and its output is terminal text. */
  tty: boolean
}

export type TaskEvent = { type: 'started'; task: TaskInfo } | { type: 'completed'; task: TaskInfo }

export function isTerminal(status: TaskStatus): boolean {
  return status !== 'running'
}
