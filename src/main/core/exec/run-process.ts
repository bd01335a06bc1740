import { ExecInputError } from './exec-input-error'
import { createExecutionPort } from './execution-port'
import type { ProcessCommand, ProcessResult, RunProcessOptions } from './types'
import { assertNonNegativeInteger, assertTimeoutMs } from './validate-input'

const port = createExecutionPort()

/**
 * seed 004: run one executable with argv (never a shell) under hard budgets and resolve to a
 * structured result. Non-zero exits, kills and spawn failures are data; only bad input rejects,
 * and it does so before anything is spawned.
 */
export async function runProcess(
  command: ProcessCommand,
  options: RunProcessOptions,
): Promise<ProcessResult> {
  if (command === null || typeof command !== 'object') throw new ExecInputError('command must be an object')
  if (options === null || typeof options !== 'object') throw new ExecInputError('options must be an object')
  // file and args are checked by the port, with the same messages, before anything is spawned.
  assertTimeoutMs(options.timeoutMs)
  assertNonNegativeInteger('maxOutputBytes', options.maxOutputBytes)
  const result = await port.execute({
    command: { mode: 'argv', file: command.file, args: command.args },
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    output: { mode: 'pipe', inlineLimitBytes: options.maxOutputBytes, onOutputLimit: options.onOutputLimit },
  })
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode,
    exitSignal: result.exitSignal,
    timedOut: result.timedOut,
    cancelled: result.cancelled,
    truncated: result.truncated,
    outputLimitReached: result.outputLimitReached,
    spawnError: result.spawnError,
    timings: result.timings,
    termination: result.termination,
  }
}
