import { setTimeout as sleep } from 'node:timers/promises'
import { statOutputFile } from '../exec/output-file-read'
import type { OutputFileRef } from '../exec/types'
import { binaryOutputPlaceholder, completeUtf8Length } from '../exec/utf8'
import { readOutputBytes } from './output-bytes'
import { waitForCondition } from './output-wait'
import { TaskError, taskNotFound } from './task-error'
import { projectTaskOutput, RUNNING_HEAD_BYTES, TASK_OUTPUT_DEFAULT_CHARS } from './task-output-projection'
import { renderTerminalText } from './terminal-text'
import { parseWaitFor } from './wait-condition'
import type { TaskRegistry } from './task-registry'
import { isTerminal, type TaskInfo } from './task-types'

/** seed 003 TaskOutput: block by default, wait up to 30 s (at most 10 min), polling every 100 ms. */
export const TASK_OUTPUT_DEFAULT_TIMEOUT_MS = 30_000
export const TASK_OUTPUT_MAX_TIMEOUT_MS = 600_000
export const TASK_OUTPUT_POLL_MS = 100

export interface TaskOutputInput {
  task_id: string
  block?: boolean
  timeout?: number
  /** A byte cursor (issue 23.2): only output from this offset of the output file, and `next_since` to go on. */
  since?: number
  /** Wait until the output after `since` matches this regular expression, or `port:N` listens. */
  wait_for?: string
}

export interface TaskOutputResult {
  /** success: a terminal state was read; not_ready: block=false and still running; timeout: still running. */
  retrieval_status: 'success' | 'not_ready' | 'timeout'
  task: {
    task_id: string
    status: TaskInfo['status']
    command: string
    exit_code: number | null
    output: string
    output_path: string
    truncated: boolean
    /** The task runs on a terminal: it takes task_input, and its output is rendered terminal text. */
    tty: boolean
    /** The byte cursor after what `output` holds: pass it as `since` to read on. */
    next_since: number
    /** With wait_for: the matched text (or `port:N`), null when it did not happen. */
    matched?: string | null
  }
}

export interface TaskOutputOptions {
  /** When given, a task of another session is reported as not found. */
  sessionId?: string
  signal?: AbortSignal
  /** resolveTaskMaxOutputLength(env); default 32000. */
  maxChars?: number
  /** How listening ports are found (wait_for port:N); default process.platform. */
  platform?: NodeJS.Platform
}

export async function readTaskOutput(
  registry: TaskRegistry,
  input: TaskOutputInput,
  options: TaskOutputOptions = {},
): Promise<TaskOutputResult> {
  const block = input.block ?? true
  const timeoutMs = input.timeout ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > TASK_OUTPUT_MAX_TIMEOUT_MS) {
    throw new TaskError(
      'invalid_input',
      `timeout must be an integer from 0 to ${TASK_OUTPUT_MAX_TIMEOUT_MS} ms, got ${input.timeout}`,
    )
  }
  const owned = (task: TaskInfo | null): TaskInfo => {
    if (!task || (options.sessionId !== undefined && task.sessionId !== options.sessionId)) {
      throw taskNotFound(input.task_id)
    }
    return task
  }
  let task = owned(registry.get(input.task_id))
  if (input.since !== undefined && !(Number.isSafeInteger(input.since) && input.since >= 0)) {
    throw new TaskError('invalid_input', `since must be a byte offset ≥ 0 (a next_since), got ${input.since}`)
  }
  const condition = input.wait_for === undefined ? null : parseWaitFor(input.wait_for)
  let status: TaskOutputResult['retrieval_status'] = 'success'
  let matched: string | null | undefined
  if (condition) {
    const outcome = await waitForCondition(registry, task.taskId, condition, {
      since: input.since ?? 0,
      timeoutMs: block ? timeoutMs : 0,
      platform: options.platform ?? process.platform,
      ...(options.signal ? { signal: options.signal } : {}),
    })
    matched = outcome.match
    task = owned(registry.get(input.task_id))
    if (matched === null && !outcome.ended) status = block ? 'timeout' : 'not_ready'
  } else if (!isTerminal(task.status)) {
    if (!block) status = 'not_ready'
    else {
      const until = Date.now() + timeoutMs
      while (!isTerminal(task.status) && Date.now() < until) {
        options.signal?.throwIfAborted()
        await sleep(Math.min(TASK_OUTPUT_POLL_MS, Math.max(0, until - Date.now())), undefined, {
          signal: options.signal,
        })
        task = owned(registry.get(input.task_id))
      }
      if (!isTerminal(task.status)) status = 'timeout'
    }
  }
  const maxChars = options.maxChars ?? TASK_OUTPUT_DEFAULT_CHARS
  const file = registry.outputFile(task.taskId)
  const projected =
    input.since !== undefined
      ? await projectFromCursor(task, file, input.since, maxChars)
      : { ...(await projectTaskOutput(task, file, maxChars)), nextSince: await sizeOf(file) }
  // Project, then check the abort, then mark: an aborted read must not swallow the completion notice.
  options.signal?.throwIfAborted()
  if (isTerminal(task.status)) registry.markNotified(task.taskId)
  return {
    retrieval_status: status,
    task: {
      task_id: task.taskId,
      status: task.status,
      command: task.command,
      exit_code: task.exitCode,
      output: projected.text,
      output_path: task.outputPath,
      truncated: projected.truncated,
      tty: task.tty,
      next_since: projected.nextSince,
      ...(matched !== undefined ? { matched } : {}),
    },
  }
}

/**
 * Output from a byte cursor onwards, as much as fits `maxChars` (bytes ≥ characters, so reading
 * at most that many bytes always fits); `nextSince` is where the part shown ends.
 */
async function projectFromCursor(
  task: TaskInfo,
  file: OutputFileRef | null,
  since: number,
  maxChars: number,
) {
  if (!file) return { text: '', truncated: false, nextSince: since }
  const read = await readOutputBytes(file, since, Math.min(RUNNING_HEAD_BYTES, maxChars))
  if (read.refused) return { text: `[${read.refused}]`, truncated: false, nextSince: since }
  // Never end inside a character: the rest of it comes with the next read.
  const bytes = read.bytes.subarray(0, completeUtf8Length(read.bytes))
  const raw = bytes.includes(0) ? binaryOutputPlaceholder(read.size) : bytes.toString('utf8')
  return {
    text: task.tty ? renderTerminalText(raw) : raw,
    truncated: read.from + bytes.length < read.size,
    nextSince: read.from + bytes.length,
  }
}

async function sizeOf(file: OutputFileRef | null): Promise<number> {
  return file ? ((await statOutputFile(file))?.size ?? 0) : 0
}
