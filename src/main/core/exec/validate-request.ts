import { ExecInputError } from './exec-input-error'
import { assertTerminalRequest } from './terminal-request'
import type { ExecutionRequest } from './types'
import {
  assertCommand,
  assertCwd,
  assertEnv,
  assertNonNegativeInteger,
  assertSignal,
  assertTimeoutMs,
} from './validate-input'

/** Throws ExecInputError for anything that would make the run ill-defined; nothing is started yet. */
export function validateRequest(request: ExecutionRequest): void {
  if (request === null || typeof request !== 'object') throw new ExecInputError('request must be an object')
  assertCommand(request.command)
  assertCwd(request.cwd)
  assertEnv(request.env)
  if (request.timeoutMs !== undefined) assertTimeoutMs(request.timeoutMs)
  assertSignal(request.signal)
  const output = request.output
  if (request.terminal !== undefined) assertTerminalRequest(request)
  if (output === undefined) return
  if (output.mode === 'pipe') {
    if (output.inlineLimitBytes !== undefined)
      assertNonNegativeInteger('inlineLimitBytes', output.inlineLimitBytes)
    if (output.persistLimitBytes !== undefined) {
      assertNonNegativeInteger('persistLimitBytes', output.persistLimitBytes)
    }
    if (output.persistDir !== undefined) assertCwd(output.persistDir)
    if (output.onOutputLimit !== undefined && !['truncate', 'terminate'].includes(output.onOutputLimit)) {
      throw new ExecInputError(
        `onOutputLimit must be "truncate" or "terminate", got ${String(output.onOutputLimit)}`,
      )
    }
  } else if (output.mode === 'file') {
    if (typeof output.outputPath !== 'string' || output.outputPath === '') {
      throw new ExecInputError('output.outputPath must be a non-empty string')
    }
    if (output.capBytes !== undefined) assertNonNegativeInteger('capBytes', output.capBytes)
  } else {
    throw new ExecInputError(
      `output.mode must be "pipe" or "file", got ${String((output as { mode: unknown }).mode)}`,
    )
  }
}
