import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { BashToolInput } from '../bash/tool/input-schema'
import type { ApprovalBroker } from '../permissions/approval-broker'
import type { SandboxService } from '../sandbox/sandbox-service'
import type { auditBashCall } from './call-audit'
import type { decideCall } from './call-decision'
import { approvalSandbox } from './call-sandbox'
import { pendingShareRefusal } from './call-shares'
import { approvalRequestOf, ruleAllowsCommand } from './decision-record'
import { answerTimeLeft, type InFlightCall } from './in-flight-call'
import type { KeptDecisions } from './kept-decisions'
import { type PromisedTask, promiseTask } from './promised-task'
import type { LiveSession } from './session-service'
import { terminalApproval } from './terminal-call'

/** Set once the caller's clock ran out during the approval: the call answered "it will run as task T". */
export interface PromiseSettler {
  settle: ((update: Partial<PromisedTask>) => void) | null
}

export interface CallApprovalDeps {
  approvals: ApprovalBroker
  sandbox?: SandboxService
  kept?: KeptDecisions
  promised: Map<string, PromisedTask>
  publish: (session: LiveSession, call: BashCall) => Promise<void>
  auditCall: (
    session: LiveSession,
    call: BashCall,
    extra: Parameters<typeof auditBashCall>[3],
  ) => Promise<unknown>
}

export interface CallApprovalContext {
  session: LiveSession
  input: BashToolInput
  decided: Awaited<ReturnType<typeof decideCall>>
  entry: InFlightCall
  /** The call as decided, before it waits. */
  call: BashCall
  promise: PromiseSettler
}

/** The person's answer, or the call as it ended without running (`ended`: denied, or no room to wait). */
export type CallApproval =
  | { ended: true; call: BashCall }
  | {
      ended: false
      call: BashCall
      decidedBy: string
      approvedBy: string | null
      unsandboxedByPerson: boolean
    }

/**
 * A call the policy asks about waits for the person (seed 003), within its session's share of
 * waiting cards. The person gets until the caller's deadline; an answer by then runs in this call,
 * one after it runs as the task the call promised.
 */
export async function askThePerson(
  deps: CallApprovalDeps,
  context: CallApprovalContext,
): Promise<CallApproval> {
  const { session, input, entry, promise } = context
  const { verdict, decision, userSettings, decideAgain } = context.decided
  const full = pendingShareRefusal(deps.approvals, context.call.sessionId)
  if (full) {
    const refused: BashCall = {
      ...context.call,
      status: 'denied',
      content: `Not run: ${full}`,
      isError: true,
    }
    await deps.publish(session, refused)
    await deps.auditCall(session, refused, { decidedBy: 'too_many_waiting', approvedBy: null })
    return { ended: true, call: refused }
  }
  entry.phase = 'approval'
  let current: BashCall = { ...context.call, status: 'waiting_for_approval' }
  await deps.publish(session, current)
  const waiting = current
  const promiseTimer =
    entry.answerWithinMs === null
      ? null
      : setTimeout(() => {
          promise.settle = promiseTask(deps.promised, session, waiting, entry, deps.kept)
        }, answerTimeLeft(entry))
  const pending = deps.approvals.request(
    {
      ...approvalRequestOf(session, input, verdict, decision, userSettings.permissions.mode),
      callId: current.id,
      ...(deps.sandbox ? { sandbox: await approvalSandbox(deps.sandbox, userSettings.sandbox) } : {}),
      ...(input.tty ? { terminal: terminalApproval(verdict) } : {}),
    },
    {
      signal: entry.controller.signal,
      checkRule: (rule) => ruleAllowsCommand(rule, verdict),
      // Judged with every rule in effect now, so a deny or ask rule still wins over the new rule.
      coveredBy: (saved) => {
        const now = decideAgain()
        return now.outcome === 'allow' && now.rules.some((rule) => rule.rule === saved.rule)
      },
    },
  )
  const answer = await pending.decision
  if (promiseTimer) clearTimeout(promiseTimer)
  const { decidedBy, approvedBy } = answer
  if (answer.behavior === 'deny') {
    current = { ...current, status: 'denied', content: answer.message, isError: true }
    await deps.publish(session, current)
    await deps.auditCall(session, current, { decidedBy, approvedBy })
    // Withdrawn (the caller's task_stop, a closed session) is not the person's denial.
    const state =
      answer.decidedBy === 'user_deny' || answer.decidedBy === 'approval_timeout' ? 'denied' : 'ended'
    promise.settle?.({ state, message: answer.message, call: current })
    return { ended: true, call: current }
  }
  if (answer.decidedBy === 'user_always' || answer.decidedBy === 'rule') {
    current = {
      ...current,
      decision: { ...current.decision!, rule: answer.rule.rule, ruleFile: answer.rule.source },
    }
  }
  const unsandboxedByPerson = answer.decidedBy === 'user_once' && answer.unsandboxed === true
  return { ended: false, call: current, decidedBy, approvedBy, unsandboxedByPerson }
}
