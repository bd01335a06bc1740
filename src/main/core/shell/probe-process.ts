import { spawn } from 'node:child_process'
import { signalGroup } from '../exec/signal-process'
import type { ProcessCommand, ProcessResult, RunProcessOptions } from '../exec/types'

/**
 * Runs a short shell probe (login-env capture, snapshot generation) with the signature of the
 * execution port's `runProcess`, so swapping to it is one import line once it lands. Interim:
 * the port was not there when these probes were written. A probe is its own process group
 * (detached) with stdin on /dev/null; timeout, output cap and abort all kill the whole group at
 * once, because an rc file that hangs is not worth a grace period.
 */
export type RunProbe = (command: ProcessCommand, options: RunProcessOptions) => Promise<ProcessResult>

/** After the group is killed, how long to wait for pipes held by an escaped grandchild. */
const PIPE_DRAIN_AFTER_EXIT_MS = 500

export const runProbeProcess: RunProbe = (command, options) =>
  new Promise((resolve) => {
    const started = performance.now()
    let child: ReturnType<typeof spawn>
    try {
      child = spawn(command.file, command.args, {
        cwd: options.cwd,
        env: options.env ?? {},
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      })
    } catch (error) {
      resolve(spawnFailure(error, started))
      return
    }
    const chunks: { stdout: Buffer[]; stderr: Buffer[] } = { stdout: [], stderr: [] }
    let bytes = 0
    let killedFor: 'timeout' | 'output' | 'cancel' | null = null
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null
    let settled = false

    const killGroup = (reason: NonNullable<typeof killedFor>) => {
      if (killedFor || exit) return
      killedFor = reason
      if (child.pid) signalGroup(child.pid, 'SIGKILL')
    }
    const timer = options.timeoutMs > 0 ? setTimeout(() => killGroup('timeout'), options.timeoutMs) : null
    const onAbort = () => killGroup('cancel')
    options.signal?.addEventListener('abort', onAbort, { once: true })

    const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const room = options.maxOutputBytes - bytes
      if (room > 0) chunks[stream].push(chunk.subarray(0, room))
      bytes += chunk.length
      if (bytes > options.maxOutputBytes) killGroup('output')
    }
    child.stdout?.on('data', collect('stdout'))
    child.stderr?.on('data', collect('stderr'))

    const finish = (spawnError: ProcessResult['spawnError']) => {
      if (settled) return
      settled = true
      if (timer) clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      child.stdout?.destroy()
      child.stderr?.destroy()
      const runMs = performance.now() - started
      const status = spawnError
        ? 'spawn_error'
        : killedFor === 'timeout'
          ? 'timed_out'
          : killedFor === 'cancel'
            ? 'cancelled'
            : exit?.code === 0 && !killedFor
              ? 'completed'
              : 'failed'
      resolve({
        status,
        stdout: Buffer.concat(chunks.stdout).toString('utf8'),
        stderr: Buffer.concat(chunks.stderr).toString('utf8'),
        exitCode: killedFor ? null : (exit?.code ?? null),
        exitSignal: exit?.signal ?? null,
        timedOut: killedFor === 'timeout',
        cancelled: killedFor === 'cancel',
        truncated: bytes > options.maxOutputBytes,
        outputLimitReached: killedFor === 'output',
        spawnError,
        timings: { spawnMs: 0, firstByteMs: null, runMs, terminationWaitMs: null, totalMs: runMs },
      })
    }
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ code: error.code ?? 'UNKNOWN', message: error.message })
    })
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      // Whatever the leader left behind in its group goes with it: a probe owns no daemons.
      if (child.pid) signalGroup(child.pid, 'SIGKILL')
      setTimeout(() => finish(null), PIPE_DRAIN_AFTER_EXIT_MS).unref()
    })
    child.on('close', () => finish(null))
  })

function spawnFailure(error: unknown, started: number): ProcessResult {
  const err = error as NodeJS.ErrnoException
  const totalMs = performance.now() - started
  return {
    status: 'spawn_error',
    stdout: '',
    stderr: '',
    exitCode: null,
    exitSignal: null,
    timedOut: false,
    cancelled: false,
    truncated: false,
    outputLimitReached: false,
    spawnError: { code: err.code ?? 'UNKNOWN', message: err.message ?? String(error) },
    timings: { spawnMs: totalMs, firstByteMs: null, runMs: 0, terminationWaitMs: null, totalMs },
  }
}
