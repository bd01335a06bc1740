import { randomUUID } from 'node:crypto'
import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { ApprovalBroker } from '../permissions/approval-broker'
import type { ApprovalRequest } from '../permissions/approval-broker-types'
import type { auditBashCall } from './call-audit'
import type { CallKind, decideCall } from './call-decision'
import { approvalRequestOf, callDecisionOf, decidedByOf, ruleAllowsCommand } from './decision-record'
import type { HookTickets, TicketGrant } from './hook-tickets'
import { newCall } from './new-call'
import { pendingShareRefusal } from './call-shares'
import type { LiveSession } from './session-service'

/** What a hook answers its agent; `deny` carries the reason the agent is shown. */
export interface HookVerdict {
  decision: 'allow' | 'deny'
  reason: string
  decidedBy: string
  approvedBy: string | null
  /** For an allowed command the client rewrites: the ticket that runs it in Shellgate. */
  ticket: string | null
}

export interface HookQuestion {
  command: string
  description?: string
  /** The client replaces its command with the answer's, so an allowed one runs in Shellgate. */
  rewrite?: boolean
  /** The client runs it on a terminal the agent can type into (Codex's exec_command with tty). */
  terminal?: boolean
  timeoutMs?: number
}

export interface HookDecisionDeps {
  approvals: ApprovalBroker
  tickets: HookTickets
  decide: (session: LiveSession, command: string, how?: CallKind) => ReturnType<typeof decideCall>
  /** What the card says about where an approved command runs (the profile, as for an MCP call). */
  cardSandbox: () => Promise<ApprovalRequest['sandbox'] | undefined>
  auditCall: (
    session: LiveSession,
    call: BashCall,
    extra: Parameters<typeof auditBashCall>[3],
  ) => ReturnType<typeof auditBashCall>
  /** Into the session's history (and the desk), as run() does with its calls. */
  publish: (session: LiveSession, call: BashCall) => Promise<void>
}

/** The card line for a command the agent runs itself: no profile applies (issue 20). */
export const AGENT_SHELL_SANDBOX: NonNullable<ApprovalRequest['sandbox']> = {
  profile: 'agent-shell',
  note: "This client cannot hand the command to Shellgate: it runs in the agent's own shell, unsandboxed, with the agent's environment.",
  unsandboxedAllowed: false,
}

/**
 * A hook's question. The same decision as a run, the person asked when it needs them. Where the
 * client rewrites its tool input, an allowed command becomes a one-time ticket: the run is audited
 * when it happens, in this session. Otherwise the agent runs it itself, audited as handed to it.
 */
export async function decideForHook(
  deps: HookDecisionDeps,
  session: LiveSession,
  input: HookQuestion,
  signal?: AbortSignal,
): Promise<HookVerdict> {
  const sessionId = session.record.id
  // Not handed to Shellgate, it runs in the agent's shell: the stricter verdict (issue 20.2).
  const { verdict, decision, userSettings } = await deps.decide(session, input.command, {
    unsandboxed: input.rewrite !== true,
    terminal: input.terminal === true,
  })
  const call: BashCall = {
    ...newCall(randomUUID(), session, input),
    decision: callDecisionOf(decision, sessionId),
    via: 'hook',
  }
  const denyWith = async (reason: string, decidedBy: string, approvedBy: string | null) => {
    const denied: BashCall = { ...call, status: 'denied', content: reason, isError: true }
    await deps.publish(session, denied)
    await deps.auditCall(session, denied, { decidedBy, approvedBy })
    return { decision: 'deny' as const, reason, decidedBy, approvedBy, ticket: null }
  }
  const allowWith = async (
    reason: string,
    approval: Pick<TicketGrant, 'decidedBy' | 'approvedBy' | 'rule' | 'unsandboxedByPerson'>,
  ): Promise<HookVerdict> => {
    const { decidedBy, approvedBy } = approval
    if (input.rewrite) {
      // The ticket's run takes this call's place in the history (same id) when the agent's shell starts it.
      await deps.publish(session, {
        ...call,
        status: 'running',
        content: "Allowed; it runs in Shellgate when the agent's shell starts it.",
      })
      const ticket = deps.tickets.issue({
        callId: call.id,
        sessionId,
        command: input.command,
        cwd: session.cwd,
        ...(input.description ? { description: input.description } : {}),
        ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
        ...approval,
      })
      return { decision: 'allow', reason, decidedBy, approvedBy, ticket }
    }
    const handed: BashCall = {
      ...call,
      status: 'run_by_agent',
      content:
        'Allowed; the agent runs it in its own shell, unsandboxed: Shellgate sees no output or exit code.',
    }
    await deps.publish(session, handed)
    await deps.auditCall(session, handed, { decidedBy, approvedBy, status: 'run_by_agent' })
    return { decision: 'allow', reason, decidedBy, approvedBy, ticket: null }
  }
  const automatic = { approvedBy: null, rule: null, unsandboxedByPerson: false }
  if (decision.outcome === 'deny') return denyWith(decision.reason, decidedByOf(decision), null)
  if (decision.outcome === 'allow')
    return allowWith(decision.reason, { decidedBy: decidedByOf(decision), ...automatic })
  const sandbox = input.rewrite ? await deps.cardSandbox() : AGENT_SHELL_SANDBOX
  // Counted with nothing awaited before the request: questions asked together each see the others.
  if (pendingShareRefusal(deps.approvals, sessionId) === null) {
    // In the session's history while the card waits, so its tab shows it (and the card inline).
    await deps.publish(session, { ...call, status: 'waiting_for_approval' })
  }
  const full = pendingShareRefusal(deps.approvals, sessionId)
  if (full) return denyWith(`Not run: ${full}`, 'too_many_waiting', null)
  const pending = deps.approvals.request(
    {
      ...approvalRequestOf(session, input, verdict, decision, userSettings.permissions.mode),
      callId: call.id,
      ...(sandbox ? { sandbox } : {}),
    },
    { ...(signal ? { signal } : {}), checkRule: (rule) => ruleAllowsCommand(rule, verdict) },
  )
  const answer = await pending.decision
  if (answer.behavior === 'deny') return denyWith(answer.message, answer.decidedBy, answer.approvedBy)
  return allowWith('approved by the person in Shellgate', {
    decidedBy: answer.decidedBy,
    approvedBy: answer.approvedBy,
    rule: answer.decidedBy === 'user_once' ? null : { rule: answer.rule.rule, source: answer.rule.source },
    unsandboxedByPerson: answer.decidedBy === 'user_once' && answer.unsandboxed === true,
  })
}
