import type { BoundedCollector, StreamName } from './bounded-collector'
import { INLINE_OUTPUT_LIMIT_BYTES } from './bounded-collector'
import type { ChildOutcome } from './child-run-types'
import { diagnoseDiskFull } from './disk-space'
import { OUTPUT_FILE_CAP_BYTES, type OutputFile } from './file-output'
import { errorMessageOf, statusOf } from './result-status'
import type { ExecutionResult, FileOutputOptions, PipeOutputOptions, SpawnErrorInfo } from './types'
import { looksBinary } from './utf8'

/** Turns a child's outcome and its output sink into the port's one result shape. */

export interface ResultContext {
  runId: string
  timeoutMs: number
  label: string
}

export function pipeResult(
  outcome: ChildOutcome,
  collector: BoundedCollector,
  output: PipeOutputOptions,
  context: ResultContext & { decode: (bytes: Buffer, cut: boolean) => string },
): ExecutionResult {
  collector.close()
  const stdoutPath = collector.persistedPath('stdout')
  const stderrPath = collector.persistedPath('stderr')
  const diskPath = output.persistDir
  return {
    ...common(outcome, context, output.inlineLimitBytes ?? INLINE_OUTPUT_LIMIT_BYTES),
    stdout: decodeStream(collector, 'stdout', context.decode),
    stderr: decodeStream(collector, 'stderr', context.decode),
    truncated: collector.truncated,
    totalBytes: collector.totalBytes,
    binary: looksBinary(collector.head('stdout')) || looksBinary(collector.head('stderr')),
    ...(stdoutPath ? { outputPath: stdoutPath } : {}),
    ...(stderrPath ? { stderrPath } : {}),
    diskFull: diskPath
      ? diagnoseDiskFull(diskPath, {
          totalBytes: collector.totalBytes,
          exitCode: outcome.exitCode,
          writeError: collector.persistError,
        })
      : null,
  }
}

/** Most runs print nothing on one stream or both: no concat and no decode for those. */
function decodeStream(
  collector: BoundedCollector,
  stream: StreamName,
  decode: (bytes: Buffer, cut: boolean) => string,
): string {
  return collector.isEmpty(stream) ? '' : decode(collector.bytes(stream), collector.inlineCut(stream))
}

export function fileResult(
  outcome: ChildOutcome,
  file: OutputFile,
  output: FileOutputOptions,
  context: ResultContext,
): ExecutionResult {
  const capBytes = output.capBytes ?? OUTPUT_FILE_CAP_BYTES
  const totalBytes = file.size()
  const binary = looksBinary(file.head())
  file.close()
  return {
    ...common(outcome, context, capBytes),
    stdout: '',
    stderr: '',
    truncated: outcome.outputLimitReached,
    totalBytes,
    binary,
    outputPath: output.outputPath,
    outputIdentity: file.identity,
    diskFull: diagnoseDiskFull(output.outputPath, { totalBytes, exitCode: outcome.exitCode }),
  }
}

function common(outcome: ChildOutcome, context: ResultContext, outputLimitBytes: number) {
  return {
    status: statusOf(outcome),
    exitCode: outcome.exitCode,
    exitSignal: outcome.exitSignal,
    timedOut: outcome.timedOut,
    cancelled: outcome.cancelled,
    outputLimitReached: outcome.outputLimitReached,
    spawnError: outcome.spawnError,
    errorMessage: errorMessageOf(outcome, {
      file: context.label,
      timeoutMs: context.timeoutMs,
      outputLimitBytes,
    }),
    pid: outcome.pid,
    runId: context.runId,
    timings: outcome.timings,
    termination: outcome.termination,
    lingering: outcome.lingering,
  }
}

/** A result for a run that never spawned: pre-aborted, or its output file could not be opened. */
export function notStarted(
  runId: string,
  why: { cancelled?: boolean; spawnError?: SpawnErrorInfo; label?: string },
): ExecutionResult {
  const outcome: ChildOutcome = {
    pid: null,
    spawnError: why.spawnError ?? null,
    exitCode: null,
    exitSignal: null,
    timedOut: false,
    cancelled: why.cancelled ?? false,
    outputLimitReached: false,
    timings: { spawnMs: 0, firstByteMs: null, runMs: 0, terminationWaitMs: null, totalMs: 0 },
    termination: null,
    lingering: null,
  }
  return {
    ...common(outcome, { runId, timeoutMs: 0, label: why.label ?? '' }, 0),
    errorMessage: why.spawnError
      ? `Failed to start ${why.label}: ${why.spawnError.message}`
      : errorMessageOf(outcome, { file: '', timeoutMs: 0, outputLimitBytes: 0 }),
    stdout: '',
    stderr: '',
    truncated: false,
    totalBytes: 0,
    binary: false,
    diskFull: null,
  }
}
