import type { ApprovalBroker } from '../permissions/approval-broker'
import type { InFlightCall } from './in-flight-call'

/**
 * issue 19.5, fair shares: one agent must not starve the others. Calls waiting for a person hold
 * no process, so they count against their own caps, never against the running ones: one agent
 * that leaves cards unanswered cannot make another agent's `ls` wait or fail.
 */
/** Calls one session may have deciding or running at once: far above what an agent does in parallel. */
export const SESSION_MAX_RUNNING_CALLS = 16
/** Approvals one session may have waiting at once (its MCP calls, hook questions and exec together). */
export const SESSION_MAX_PENDING_APPROVALS = 8
/** Across every session: processes at once, low enough that no client can start thousands. */
export const HUB_MAX_RUNNING_CALLS = 64
/** Across every session: cards at once (100 sessions × 8 would be more than anyone can read). */
export const HUB_MAX_PENDING_APPROVALS = 256

/** Why a new call may not start now, or null. A call waiting for approval is not running. */
export function runningShareRefusal(inFlight: Iterable<InFlightCall>, sessionId: string): string | null {
  let session = 0
  let hub = 0
  for (const call of inFlight) {
    if (call.phase === 'approval') continue
    hub += 1
    if (call.sessionId === sessionId) session += 1
  }
  if (session >= SESSION_MAX_RUNNING_CALLS)
    return `${SESSION_MAX_RUNNING_CALLS} of this session's commands are already running; try again when one ends`
  if (hub >= HUB_MAX_RUNNING_CALLS)
    return `${HUB_MAX_RUNNING_CALLS} commands are already running in Shellgate; try again when one ends`
  return null
}

/** Why this session may not ask the person once more now, or null. */
export function pendingShareRefusal(approvals: ApprovalBroker, sessionId: string): string | null {
  const pending = approvals.list()
  const mine = pending.filter((approval) => approval.sessionId === sessionId).length
  if (mine >= SESSION_MAX_PENDING_APPROVALS)
    return `${SESSION_MAX_PENDING_APPROVALS} of this session's commands already wait for approval in Shellgate; nothing more is asked until the person answers them`
  if (pending.length >= HUB_MAX_PENDING_APPROVALS)
    return `${HUB_MAX_PENDING_APPROVALS} commands already wait for approval in Shellgate; nothing more is asked until the person answers some`
  return null
}
