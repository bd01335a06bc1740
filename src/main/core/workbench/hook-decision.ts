import { randomUUID } from 'node:crypto'
import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { ApprovalBroker } from '../permissions/approval-broker'
import type { auditBashCall } from './call-audit'
import type { decideCall } from './call-decision'
import { approvalRequestOf, callDecisionOf, decidedByOf, ruleAllowsCommand } from './decision-record'
import { newCall } from './new-call'
import type { LiveSession } from './session-service'

/** What a hook answers its agent; `deny` carries the reason the agent is shown. */
export interface HookVerdict {
  decision: 'allow' | 'deny'
  reason: string
  decidedBy: string
  approvedBy: string | null
}

export interface HookDecisionDeps {
  approvals: ApprovalBroker
  decide: (session: LiveSession, command: string) => ReturnType<typeof decideCall>
  auditCall: (
    session: LiveSession,
    call: BashCall,
    extra: Parameters<typeof auditBashCall>[3],
  ) => ReturnType<typeof auditBashCall>
}

/**
 * A hook's question: the agent runs the command with its own tool. The same decision as a run,
 * the person asked when it needs them; audited as handed to the agent, but nothing runs here.
 */
export async function decideForHook(
  deps: HookDecisionDeps,
  session: LiveSession,
  input: { command: string; description?: string },
  signal?: AbortSignal,
): Promise<HookVerdict> {
  const sessionId = session.record.id
  const { verdict, decision, userSettings } = await deps.decide(session, input.command)
  const call: BashCall = {
    ...newCall(randomUUID(), session, input),
    decision: callDecisionOf(decision, sessionId),
  }
  const answerWith = async (
    allowed: boolean,
    reason: string,
    decidedBy: string,
    approvedBy: string | null,
  ): Promise<HookVerdict> => {
    const ended: BashCall = { ...call, status: allowed ? 'running' : 'denied' }
    await deps.auditCall(session, ended, {
      decidedBy,
      approvedBy,
      status: allowed ? 'run_by_agent' : 'denied',
    })
    return { decision: allowed ? 'allow' : 'deny', reason, decidedBy, approvedBy }
  }
  if (decision.outcome !== 'ask') {
    return answerWith(decision.outcome === 'allow', decision.reason, decidedByOf(decision), null)
  }
  const pending = deps.approvals.request(
    approvalRequestOf(session, input, verdict, decision, userSettings.permissions.mode),
    { ...(signal ? { signal } : {}), checkRule: (rule) => ruleAllowsCommand(rule, verdict) },
  )
  const answer = await pending.decision
  if (answer.behavior === 'deny')
    return answerWith(false, answer.message, answer.decidedBy, answer.approvedBy)
  return answerWith(true, 'approved by the person in Shellgate', answer.decidedBy, answer.approvedBy)
}
