import type { BashCall } from '../../../shared/ipc/domains/bash'
import { formatAwaitingApprovalContent } from '../tasks/background-content'
import type { InFlightCall } from './in-flight-call'
import type { LiveSession } from './session-service'

/** A call that answered "it will run as task T" before the person decided. */
export interface PromisedTask {
  taskId: string
  sessionId: string
  command: string
  /** waiting: for the person; denied: refused (see message); started: task T runs; ended: it never became a task. */
  state: 'waiting' | 'denied' | 'started' | 'ended'
  message: string | null
  /** The call as it stands (for ended: its final content). */
  call: BashCall
  /** Settles when the state leaves `waiting`. */
  decided: Promise<void>
}

/**
 * The caller's clock cannot wait for the person: answer now with the task id the command will
 * run as, and keep the call going without its caller.
 */
export function promiseTask(
  promised: Map<string, PromisedTask>,
  session: LiveSession,
  call: BashCall,
  entry: InFlightCall,
): (update: Partial<PromisedTask>) => void {
  let decide!: () => void
  const record: PromisedTask = {
    taskId: call.id,
    sessionId: session.record.id,
    command: call.command,
    state: 'waiting',
    message: null,
    call,
    decided: new Promise<void>((resolve) => {
      decide = resolve
    }),
  }
  promised.set(call.id, record)
  // The agent may quit now; the person still sees the card, and task T is theirs to allow.
  entry.detachCaller()
  entry.answer({ ...call, taskId: call.id, content: formatAwaitingApprovalContent(call.id) })
  return (update) => {
    Object.assign(record, update)
    if (record.state !== 'waiting') decide()
  }
}
