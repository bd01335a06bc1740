import type { BashCallStatus } from '../../shared/ipc/domains/bash'

/** What the user reads for each state; the raw status stays available as data-status for tests. */
export const CALL_STATUS_LABEL: Record<BashCallStatus, string> = {
  waiting_for_approval: 'Waiting for approval',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  timed_out: 'Timed out',
  cancelled: 'Cancelled',
  spawn_error: 'Could not start',
  denied: 'Denied',
  backgrounded: 'Moved to background',
  run_by_agent: "Run in the agent's own shell, unsandboxed",
}

export function isLive(status: BashCallStatus): boolean {
  return status === 'running' || status === 'waiting_for_approval'
}
