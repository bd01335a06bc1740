import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { BashToolInput } from '../bash/tool/input-schema'
import { isAutoBackgroundEligible } from '../tasks/background-policy'
import { WorkbenchError } from './workbench-error'

/** A call that has not ended yet; `phase` says what cancel and background may do to it. */
export interface InFlightCall {
  sessionId: string
  /** Aborting it withdraws the approval or kills the foreground tree. */
  controller: AbortController
  /** Aborting it commits the foreground command to the background. */
  backgroundNow: AbortController
  phase: 'deciding' | 'approval' | 'foreground' | 'foreground_only' | 'background'
  done: Promise<BashCall>
  /** The caller's clock (BashRunOptions.answerWithinMs), or null for a caller that waits. */
  answerWithinMs: number | null
  startedAt: number
  /** Answers the caller before the call ends (a promised task); later answers are ignored. */
  answer: (call: BashCall) => void
  /** Stops the caller's leaving from cancelling the call. */
  detachCaller: () => void
}

/** How long the caller still waits for this call's answer; infinite for a caller without a clock. */
export function answerTimeLeft(entry: InFlightCall): number {
  if (entry.answerWithinMs === null) return Number.POSITIVE_INFINITY
  return Math.max(0, entry.startedAt + entry.answerWithinMs - Date.now())
}

/**
 * seed 003: a leading `sleep` is killed at its timeout rather than backgrounded, unless the
 * caller's clock is shorter than that timeout (then it waits as a task and still ends at it).
 */
export function endsAtTimeout(input: BashToolInput, entry: InFlightCall): boolean {
  if (input.run_in_background || isAutoBackgroundEligible(input.command)) return false
  return entry.answerWithinMs === null
}

export function movedToBackground(callId: string): WorkbenchError {
  return new WorkbenchError(
    'invalid_input',
    `call "${callId}" is a background task now; stop it as task ${callId}`,
    'callId',
  )
}
