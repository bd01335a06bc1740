import type {
  ExecutionHooks,
  ExecutionPort,
  ExecutionRequest,
  ExecutionResult,
  FileIdentity,
} from '../exec/types'
import { OUTPUT_FILE_CAP_BYTES } from '../exec/file-output'
import type { TerminalHandle } from '../exec/terminal-types'
import type { TaskRegistry } from './task-registry'

/** explicit: run_in_background, committed as soon as the process exists. auto_on_timeout: at the deadline. */
export type BackgroundMode = { mode: 'explicit' } | { mode: 'auto_on_timeout'; deadlineMs: number }

export interface BackgroundRunOptions {
  sessionId: string
  /** Bash output file for this call (0600, created by the port); it outlives the call when backgrounded. */
  outputPath: string
  description?: string
  /** The caller's abort (e.g. the agent's turn): honoured only while the command is in the foreground. */
  signal?: AbortSignal
  /** Aborting it commits a foreground command to the background at once (a person's "move to background"). */
  backgroundNow?: AbortSignal
  /** Default OUTPUT_FILE_CAP_BYTES (5 GB): the port enforces it in the background too. Smaller in tests. */
  capBytes?: number
  /** The caller's hooks; progress and resource samples stop reaching it once the command is backgrounded. */
  hooks?: ExecutionHooks
  /** Defaults to a fresh registry id. */
  taskId?: string
  /** What the user and the model asked to run, shown in Tasks; defaults to the executed command line. */
  command?: string
  /** Ports the sandbox's own bridges listen on inside the task's namespace (see TaskRegistration). */
  sandboxPorts?: number[]
}

export interface BackgroundedTask {
  taskId: string
  status: 'running'
  startedAt: string
  pid: number | null
  outputPath: string
}

export type LifecycleOutcome =
  | { kind: 'foreground'; result: ExecutionResult }
  | { kind: 'backgrounded'; task: BackgroundedTask }

/**
 * seed 003 超时与后台: runs a Bash command with no process timeout and its output always in the
 * file. In auto_on_timeout mode a foreground deadline runs beside it; at the deadline the process is
 * not killed but committed to the background. A command that ends first is an ordinary result.
 */
export function runWithBackgroundLifecycle(
  port: ExecutionPort,
  registry: TaskRegistry,
  request: Omit<ExecutionRequest, 'timeoutMs' | 'signal' | 'output'>,
  mode: BackgroundMode,
  options: BackgroundRunOptions,
): Promise<LifecycleOutcome> {
  if (mode.mode === 'auto_on_timeout' && !(Number.isFinite(mode.deadlineMs) && mode.deadlineMs > 0)) {
    return Promise.reject(new Error(`deadlineMs must be a positive number of ms, got ${mode.deadlineMs}`))
  }
  const taskId = options.taskId ?? registry.newTaskId()
  const capBytes = options.capBytes ?? OUTPUT_FILE_CAP_BYTES
  const controller = new AbortController()
  const startedAt = Date.now()
  let state: 'foreground' | 'backgrounded' | 'settled' = 'foreground'
  let pid: number | null = null
  let runId: string | null = null
  let terminal: TerminalHandle | null = null
  // Reported while execute() opens the file, before anything else can commit the task.
  let outputIdentity: FileIdentity | null = null
  let limitReached = false
  let deadline: NodeJS.Timeout | null = null
  let resolveSettled!: (result: ExecutionResult) => void
  let rejectSettled!: (error: unknown) => void
  const settled = new Promise<ExecutionResult>((resolve, reject) => {
    resolveSettled = resolve
    rejectSettled = reject
  })
  // Only the registry listens, and only once the task is committed; a foreground failure is reported below.
  settled.catch(() => {})

  return new Promise<LifecycleOutcome>((resolveOutcome, rejectOutcome) => {
    const onCallerAbort = () => controller.abort(options.signal?.reason ?? 'cancelled')
    const detachCallerAbort = () => options.signal?.removeEventListener('abort', onCallerAbort)
    const clearDeadline = () => {
      if (deadline) clearTimeout(deadline)
      deadline = null
    }

    const commitBackground = (): boolean => {
      if (state !== 'foreground' || controller.signal.aborted) return false
      // State first, then the deadline, the caller's abort and the registration, all in one turn of
      // the event loop, so no abort or completion can slip in between and kill a background task.
      state = 'backgrounded'
      clearDeadline()
      detachCallerAbort()
      const info = registry.register({
        taskId,
        sessionId: options.sessionId,
        command:
          options.command ??
          (request.command.mode === 'shell'
            ? request.command.command
            : [request.command.file, ...request.command.args].join(' ')),
        description: options.description ?? null,
        outputPath: options.outputPath,
        outputIdentity,
        pid,
        startedAt,
        controller,
        settled,
        runId,
        terminal,
        sandboxPorts: options.sandboxPorts ?? [],
      })
      if (limitReached) registry.abortForOutputLimit(taskId)
      resolveOutcome({
        kind: 'backgrounded',
        task: { taskId, status: 'running', startedAt: info.startedAt, pid, outputPath: options.outputPath },
      })
      return true
    }

    if (options.signal?.aborted) controller.abort(options.signal.reason ?? 'cancelled')
    else options.signal?.addEventListener('abort', onCallerAbort, { once: true })

    let execution: Promise<ExecutionResult>
    try {
      execution = port.execute(
        {
          ...request,
          timeoutMs: 0,
          signal: controller.signal,
          output: { mode: 'file', outputPath: options.outputPath, capBytes },
        },
        // The caller's hooks belong to its tool call, which is over once the command is backgrounded.
        {
          onOutputFile(file) {
            outputIdentity = file.identity
            options.hooks?.onOutputFile?.(file)
          },
          onTerminal(handle) {
            terminal = handle
            options.hooks?.onTerminal?.(handle)
          },
          onSpawn(info) {
            pid = info.pid
            runId = info.runId
            options.hooks?.onSpawn?.(info)
            if (mode.mode === 'explicit') commitBackground()
          },
          onProgress(sample) {
            if (sample.totalBytes >= capBytes) limitReached = true
            if (state === 'foreground') options.hooks?.onProgress?.(sample)
          },
          onResourceSample(sample) {
            if (state === 'foreground') options.hooks?.onResourceSample?.(sample)
          },
        },
      )
    } catch (error) {
      detachCallerAbort()
      rejectOutcome(error)
      return
    }

    if (mode.mode === 'auto_on_timeout' && state === 'foreground') {
      deadline = setTimeout(commitBackground, mode.deadlineMs)
      if (options.backgroundNow?.aborted) commitBackground()
      else options.backgroundNow?.addEventListener('abort', () => commitBackground(), { once: true })
    }

    execution.then(
      (result) => {
        resolveSettled(result)
        if (state !== 'foreground') return
        state = 'settled'
        clearDeadline()
        detachCallerAbort()
        resolveOutcome({ kind: 'foreground', result })
      },
      (error: unknown) => {
        rejectSettled(error)
        clearDeadline()
        detachCallerAbort()
        if (state === 'foreground') {
          state = 'settled'
          rejectOutcome(error)
        }
      },
    )
  })
}
