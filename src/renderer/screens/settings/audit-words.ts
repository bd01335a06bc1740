import type { AuditStatus, DecidedBy } from '../../../shared/audit'

/** Who or what decided, as a person says it; the log keeps the code, the filter sends it. */
export const DECIDED_BY_WORDS: Record<DecidedBy, string> = {
  read_only: 'read-only, ran without asking',
  rule: 'an allow rule',
  allowed_once: 'allowed once by you',
  always_allowed: 'always allowed by you (rule saved)',
  mode: 'the mode',
  denied_by_rule: 'a deny rule',
  denied_by_person: 'denied by you',
  approval_timeout: 'nobody answered in time',
  session_closed: 'its session was closed',
  cancelled: 'cancelled',
  too_many_waiting: 'too many of its session’s cards were waiting',
  terminal_task: 'typed into a terminal task the person allowed',
  network_policy: 'the network policy',
}

export const STATUS_WORDS: Record<AuditStatus, string> = {
  completed: 'completed',
  failed: 'failed',
  timed_out: 'timed out',
  cancelled: 'cancelled',
  spawn_error: 'could not start',
  denied: 'denied',
  backgrounded: 'moved to the background',
  stopped: 'stopped',
  run_by_agent: 'run by the agent in its own shell',
  network: "a connection the command's sandbox asked for",
  input: 'typed into a terminal task',
  ticket_unused: 'allowed for the agent, which never ran it',
}
