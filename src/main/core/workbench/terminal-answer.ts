import { isSecretMode } from '../exec/terminal-types'
import { waitForCondition, WAIT_POLL_MS } from '../tasks/output-wait'
import { readTaskOutput } from '../tasks/task-output'
import type { TaskRegistry } from '../tasks/task-registry'
import { renderTerminalText } from '../tasks/terminal-text'
import type { WaitCondition } from '../tasks/wait-condition'

/** A terminal run without wait_for answers once its output has been still this long (a prompt is waiting). */
export const TERMINAL_QUIET_MS = 1_000
/** …or once it printed nothing at all for this long (`read` without a prompt waits silently). */
export const TERMINAL_SILENT_MS = 2_000

export interface StartAnswer {
  text: string
  nextSince: number
}

/**
 * What `bash` answers for a command started as a task it waits on (issue 23.3): once wait_for
 * matched (or the port listens), the task ended, a terminal run's output went quiet (it waits for
 * input), or at the timeout, with the output so far and how to go on.
 */
export async function answerAfterStart(
  tasks: TaskRegistry,
  taskId: string,
  options: {
    condition: WaitCondition | null
    timeoutMs: number
    platform: NodeJS.Platform
    signal: AbortSignal
  },
): Promise<StartAnswer> {
  const tty = tasks.terminal(taskId) !== null
  let outcome: { match: string | null; timedOut: boolean } = { match: null, timedOut: false }
  try {
    if (options.condition) {
      outcome = await waitForCondition(tasks, taskId, options.condition, {
        since: 0,
        timeoutMs: options.timeoutMs,
        platform: options.platform,
        signal: options.signal,
      })
    } else if (tty) {
      outcome = {
        match: null,
        timedOut: !(await quietOrEnded(tasks, taskId, options.timeoutMs, options.signal)),
      }
    }
  } catch {
    // The caller went away: the task keeps running; say what there is.
  }
  const read = await readTaskOutput(tasks, { task_id: taskId, block: false })
  const task = tasks.get(taskId)
  const ended = task ? task.status !== 'running' : true
  const seconds = Math.round(options.timeoutMs / 1000)
  const where = tty ? `on a terminal as task ${taskId} (it takes input)` : `in background with ID: ${taskId}`
  const state = ended
    ? `The task ${task?.status ?? 'ended'}${task?.exitCode == null ? '' : ` with exit code ${task.exitCode}`}.`
    : outcome.match !== null
      ? options.condition?.kind === 'port'
        ? `Ready: port ${options.condition.port} is listening.`
        : `Ready: the output matched ${JSON.stringify(outcome.match.slice(0, 200))}.`
      : options.condition
        ? `Not ready after ${seconds} s: ${options.condition.kind === 'port' ? `port ${options.condition.port} is not listening` : `wait_for ${JSON.stringify(options.condition.source)} has not matched`} yet; it is still running.`
        : outcome.timedOut
          ? `Still printing after ${seconds} s; it is still running.`
          : read.task.output === ''
            ? 'It has printed nothing yet: it may be waiting for input, or still working.'
            : 'Its output has gone quiet: it may be waiting for input.'
  const secret = tty && !ended && isSecretMode((await tasks.terminal(taskId)?.mode()) ?? null)
  const next = ended
    ? []
    : [
        ...(secret
          ? [
              'The terminal is not echoing: it is asking for a secret (a password). Typed text is hidden from every log.',
            ]
          : []),
        tty
          ? `Type into it with task_input (task_id "${taskId}"; "\\n" is Enter). Read on with task_output (task_id "${taskId}", since ${read.task.next_since}, and wait_for a pattern the program prints next). task_stop ends it.`
          : `Read on with task_output (task_id "${taskId}", since ${read.task.next_since}). task_stop ends it.`,
      ]
  const text = [
    `Command running ${where}.`,
    state,
    `Output is being written to: ${read.task.output_path}`,
    ...(read.task.output === ''
      ? ['(no output yet)']
      : ['Output so far:', tty ? read.task.output : renderTerminalText(read.task.output)]),
    ...next,
  ].join('\n')
  return { text, nextSince: read.task.next_since }
}

/** True once the output has grown and then been still for TERMINAL_QUIET_MS, or the task ended. */
async function quietOrEnded(
  tasks: TaskRegistry,
  taskId: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const until = Date.now() + timeoutMs
  let lastSize = -1
  let stillSince = Date.now()
  while (Date.now() < until) {
    signal.throwIfAborted()
    const task = await tasks.info(taskId)
    if (task?.status !== 'running') return true
    if (task.bytes !== lastSize) {
      lastSize = task.bytes
      stillSince = Date.now()
    } else if (Date.now() - stillSince >= (task.bytes > 0 ? TERMINAL_QUIET_MS : TERMINAL_SILENT_MS))
      return true
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS))
  }
  return false
}
