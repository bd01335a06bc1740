import { type OutputSlice, readOutputHead, readOutputTail } from './output-file-range'
import type { OutputFileRef } from '../exec/types'
import { isTerminal, type TaskInfo } from './task-types'
import { renderTerminalText } from './terminal-text'

/** seed 003 TaskOutput: a running task shows what it printed first, a finished one its end. */
export const RUNNING_HEAD_BYTES = 30_000
export const FINISHED_TAIL_BYTES = 8 * 1024 * 1024
/** Characters of output the model sees; TASK_MAX_OUTPUT_LENGTH may raise it up to the max. */
export const TASK_OUTPUT_DEFAULT_CHARS = 32_000
export const TASK_OUTPUT_MAX_CHARS = 160_000

/** TASK_MAX_OUTPUT_LENGTH from the environment, clamped to 1…160000; anything else is the default. */
export function resolveTaskMaxOutputLength(env: Record<string, string | undefined>): number {
  const raw = env.TASK_MAX_OUTPUT_LENGTH?.trim()
  const value = raw ? Number(raw) : Number.NaN
  if (!Number.isInteger(value) || value <= 0) return TASK_OUTPUT_DEFAULT_CHARS
  return Math.min(value, TASK_OUTPUT_MAX_CHARS)
}

export interface ProjectedOutput {
  text: string
  /** Bytes or characters were left out; the full file is at task.outputPath. */
  truncated: boolean
}

/** Reads the part of a task's output the model should see, and fits it to `maxChars` keeping the tail. */
export async function projectTaskOutput(
  task: TaskInfo,
  file: OutputFileRef | null,
  maxChars: number,
): Promise<ProjectedOutput> {
  if (!file) return { text: '', truncated: false }
  // A terminal task's news is at its end (the prompt it waits at), running or not.
  const slice: OutputSlice =
    isTerminal(task.status) || task.tty
      ? await readOutputTail(file, FINISHED_TAIL_BYTES)
      : await readOutputHead(file, RUNNING_HEAD_BYTES)
  const text = task.tty && slice.refused === undefined ? renderTerminalText(slice.text) : slice.text
  if (text.length <= maxChars) {
    return { text, truncated: slice.omittedBytes > 0 }
  }
  const tail = text.slice(text.length - maxChars)
  const note = `[Output truncated: showing the last ${maxChars} characters. Full output: ${task.outputPath}]`
  return { text: `${note}\n${tail}`, truncated: true }
}
