import type { ChildOutcome } from './child-run-types'
import type { ExecutionStatus } from './types'

/** seed 000: spawn error > timeout > cancel > output limit > exit code. */
export function statusOf(outcome: ChildOutcome): ExecutionStatus {
  if (outcome.spawnError) return 'spawn_error'
  if (outcome.timedOut) return 'timed_out'
  if (outcome.cancelled) return 'cancelled'
  if (outcome.outputLimitReached) return 'failed'
  return outcome.exitCode === 0 ? 'completed' : 'failed'
}

/** One sentence for the UI and the model; null for a completed run. */
export function errorMessageOf(
  outcome: ChildOutcome,
  context: { file: string; timeoutMs: number; outputLimitBytes: number },
): string | null {
  switch (statusOf(outcome)) {
    case 'completed':
      return null
    case 'spawn_error':
      return `Failed to start ${context.file}: ${outcome.spawnError!.code} (${outcome.spawnError!.message})`
    case 'timed_out':
      return `Command timed out after ${formatDuration(context.timeoutMs)}`
    case 'cancelled':
      return 'Command was cancelled'
    default:
      if (outcome.outputLimitReached) {
        return `Command was terminated: its output exceeded ${context.outputLimitBytes} bytes`
      }
      if (outcome.exitSignal) return `Command was killed by ${outcome.exitSignal}`
      return `Command exited with code ${outcome.exitCode}`
  }
}

/** `2m`, `1m 30s`, `45s`, `1.5s`, `250ms`: the shape of the seed's `Command timed out after 2m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))}s`
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor((ms % 3_600_000) / 60_000)
  const seconds = Math.round((ms % 60_000) / 1000)
  return [hours ? `${hours}h` : '', minutes ? `${minutes}m` : '', seconds ? `${seconds}s` : '']
    .filter(Boolean)
    .join(' ')
}
