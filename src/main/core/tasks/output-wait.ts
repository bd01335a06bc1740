import { listeningSockets } from './listening-ports'
import { readOutputBytes } from './output-bytes'
import type { TaskRegistry } from './task-registry'
import { taskProcesses } from './task-processes'
import { isTerminal } from './task-types'
import { renderTerminalText } from './terminal-text'
import type { WaitCondition } from './wait-condition'

/** Each look at new output reads at most this much; a pattern is found within it. */
export const WAIT_SCAN_BYTES = 256 * 1024
/** Re-read from the last line start, at most this far back, so a match split between two reads is found. */
export const WAIT_OVERLAP_BYTES = 16 * 1024
/** A task that printed more than this since the last look is skipped ahead: a flood is not read through. */
export const WAIT_MAX_BEHIND_BYTES = 8 * 1024 * 1024
/** Without a terminal to wake us, the file and the ports are looked at this often. */
export const WAIT_POLL_MS = 50

export interface WaitOutcome {
  /** The matched text, or `port:N` once the port listens; null when it did not happen. */
  match: string | null
  /** The task had ended when the wait stopped. */
  ended: boolean
  /** The wait ran out first. */
  timedOut: boolean
}

export interface WaitOptions {
  since: number
  timeoutMs: number
  platform: NodeJS.Platform
  signal?: AbortSignal
}

/**
 * Waits until the condition holds, the task ends, or the timeout passes (issue 23.2/23.3). A
 * terminal task wakes the wait on each chunk it prints, so an answer to `y\n` is seen within
 * milliseconds; a piped task and a port are polled. Output is read from `since` onwards, rendered
 * as the model reads it (a terminal's control sequences gone), and scanned once, in overlapping
 * windows, so the cost is linear in what was printed.
 */
export async function waitForCondition(
  registry: TaskRegistry,
  taskId: string,
  condition: WaitCondition,
  options: WaitOptions,
): Promise<WaitOutcome> {
  const deadline = Date.now() + options.timeoutMs
  const file = registry.outputFile(taskId)
  const tty = registry.terminal(taskId) !== null
  let scanFrom = options.since
  for (;;) {
    options.signal?.throwIfAborted()
    // Status first: output read after seeing the end is all the output there will be.
    const ended = isTerminal(registry.get(taskId)?.status ?? 'stopped')
    let behind = false
    if (condition.kind === 'pattern') {
      if (file) {
        const window = await readOutputBytes(file, scanFrom, WAIT_SCAN_BYTES)
        if (window.size - scanFrom > WAIT_MAX_BEHIND_BYTES) {
          scanFrom = window.size - WAIT_SCAN_BYTES
          continue
        }
        const raw = window.bytes.toString('utf8')
        // Matched against what a person reads: colours (FORCE_COLOR reaches piped tasks too) and
        // redrawn lines would otherwise split "listening on 5173" into pieces.
        const match = condition.find(renderTerminalText(raw))
        if (match !== null) return { match, ended, timedOut: false }
        scanFrom = nextScanStart(window.bytes, window.from)
        behind = window.from + window.bytes.length < window.size
      }
    } else if (await portListens(registry, taskId, condition.port, options.platform)) {
      return { match: `port:${condition.port}`, ended, timedOut: false }
    }
    if (ended) return { match: null, ended: true, timedOut: false }
    if (behind) continue
    const left = deadline - Date.now()
    if (left <= 0) return { match: null, ended: false, timedOut: true }
    await nextChange(
      registry,
      taskId,
      condition.kind === 'pattern' && tty,
      Math.min(left, WAIT_POLL_MS * (tty ? 20 : 1)),
      options.signal,
    )
  }
}

export async function portListens(
  registry: TaskRegistry,
  taskId: string,
  port: number,
  platform: NodeJS.Platform,
): Promise<boolean> {
  const owner = registry.processOf(taskId)
  if (!owner || owner.sandboxPorts.includes(port)) return false
  const sockets = await listeningSockets(await taskProcesses(owner, platform), platform)
  return sockets.some((socket) => socket.port === port)
}

function nextScanStart(bytes: Buffer, from: number): number {
  const end = from + bytes.length
  const lastNewline = bytes.lastIndexOf(0x0a)
  const lineStart = lastNewline === -1 ? from : from + lastNewline + 1
  return Math.max(lineStart, end - WAIT_OVERLAP_BYTES, from)
}

/** Resolves on the terminal's next output, the task's end, the poll interval, or the abort. */
function nextChange(
  registry: TaskRegistry,
  taskId: string,
  onOutput: boolean,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanups: Array<() => void> = []
    let finished = false
    // A listener that fires while being added (a terminal already closed) must not leak the others.
    const add = (cleanup: () => void) => (finished ? cleanup() : cleanups.push(cleanup))
    const done = (error?: unknown) => {
      if (finished) return
      finished = true
      for (const cleanup of cleanups.splice(0)) cleanup()
      if (error) reject(error)
      else resolve()
    }
    const timer = setTimeout(() => done(), ms)
    add(() => clearTimeout(timer))
    add(
      registry.onEvent((event) => {
        if (event.type === 'completed' && event.task.taskId === taskId) done()
      }),
    )
    if (signal) {
      const onAbort = () => done(signal.reason ?? new Error('aborted'))
      signal.addEventListener('abort', onAbort, { once: true })
      add(() => signal.removeEventListener('abort', onAbort))
    }
    const terminal = onOutput ? registry.terminal(taskId) : null
    if (terminal) {
      add(terminal.onData(() => done()))
      add(terminal.onClose(() => done()))
    }
  })
}
