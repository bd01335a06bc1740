import type { BashCall } from '../../../shared/ipc/domains/bash'
import { formatAwaitingApprovalContent } from '../tasks/background-content'
import { agentFamily } from '../sessions/agent-runs'
import type { InFlightCall } from './in-flight-call'
import type { KeptDecisions } from './kept-decisions'
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
  kept?: KeptDecisions,
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
  // Issue 22.5: what the person decides outlives this agent run, for its next run in this folder.
  const agent = session.record.agent
  const keep = agent ? kept : undefined
  void keep
    ?.put({
      taskId: call.id,
      sessionId: session.record.id,
      agent: agentFamily(agent!.name),
      workspace: session.record.workspace,
      command: call.command,
      state: 'waiting',
      message: null,
      requestedAt: new Date().toISOString(),
      decidedAt: null,
      outcome: null,
    })
    .catch(() => undefined)
  // The agent may quit now; the person still sees the card, and task T is theirs to allow.
  entry.detachCaller()
  entry.answer({ ...call, taskId: call.id, content: formatAwaitingApprovalContent(call.id) })
  return (update) => {
    Object.assign(record, update)
    if (record.state === 'waiting') return
    decide()
    const ended = record.state === 'ended' ? record.call : null
    void keep
      ?.update(call.id, {
        state: record.state === 'ended' ? 'withdrawn' : record.state,
        message: record.message,
        decidedAt: new Date().toISOString(),
        ...(ended
          ? {
              outcome: {
                status: ended.status,
                exitCode: ended.exitCode,
                outputTail: ended.content.slice(-8_192),
              },
            }
          : {}),
      })
      .catch(() => undefined)
  }
}
