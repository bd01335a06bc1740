import type { LiveSession } from './session-service'
import { suggestRules } from '../permissions/suggest-rules'
import type { BashCall } from '../../../shared/ipc/domains/bash'
import type { ApprovalRequest, ApprovalWhy } from '../permissions/approval-broker-types'
import type { PermissionMode } from '../../../shared/settings'
import { decideBashPermission } from '../permissions/decide-permission'
import type { PermissionDecision } from '../permissions/permission-types'
import type { CommandVerdict } from '../bash/verdict'
import type { DecidedBy } from '../settings/audit-entry'

/** The approval card's request for a command, as run() and a hook both ask it. */
export function approvalRequestOf(
  session: LiveSession,
  input: { command: string; description?: string | undefined },
  verdict: CommandVerdict,
  decision: PermissionDecision,
  mode: PermissionMode,
): ApprovalRequest {
  return {
    sessionId: session.record.id,
    command: input.command,
    cwd: session.cwd,
    shell: session.record.shell.path,
    ...(input.description ? { description: input.description } : {}),
    mode,
    why: approvalWhy(verdict, decision, suggestRules(verdict)),
  }
}

/** The call's record of its automatic decision, with the first rule that decided it. */
export function callDecisionOf(
  decision: PermissionDecision,
  sessionId: string,
): NonNullable<BashCall['decision']> {
  const firstRule = decision.rules[0]
  return {
    outcome: decision.outcome,
    decidedBy: decision.basis,
    reason: decision.reason,
    rule: firstRule?.rule ?? null,
    ruleFile: firstRule ? (firstRule.file ?? `${firstRule.source}:${sessionId}`) : null,
  }
}

/** The audit log's word for how an automatic decision was reached (ask never decides by itself). */
export function decidedByOf(decision: PermissionDecision): DecidedBy {
  switch (decision.basis) {
    case 'mode.build.readOnly':
    case 'mode.plan.readOnly':
      return 'read_only'
    case 'rule.allow':
      return 'rule'
    case 'rule.deny':
    case 'builtin.ownControls':
      return 'denied_by_rule'
    default:
      return 'mode'
  }
}

/** What the approval card shows: why this needs a person, and what would make it not. */
export function approvalWhy(
  verdict: CommandVerdict,
  decision: PermissionDecision,
  suggestedRules: string[],
): ApprovalWhy {
  return {
    reason: decision.reason,
    nonReadOnly: verdict.parts
      .filter((part) => !part.readOnly)
      .map((part) => ({ text: part.text, reason: part.reason })),
    nearMiss: decision.nearMiss
      ? { rule: decision.nearMiss.rule, explanation: decision.nearMiss.explanation }
      : null,
    suggestedRules,
  }
}

/**
 * An always-allow rule must allow the very command on the card; a rule that would not (a typo,
 * `rm:*` typed on a `touch` card) is refused before it is saved. Judged as a lone rule in build
 * mode, whatever the current mode, because the rule is meant for later too.
 */
export function ruleAllowsCommand(rule: string, verdict: CommandVerdict): string | null {
  const decision = decideBashPermission({
    verdict,
    mode: 'build',
    ruleSets: [{ source: 'session', file: null, rules: { allow: [rule], ask: [], deny: [] } }],
  })
  if (decision.outcome === 'allow') return null
  return `"${rule}" would not allow this command; edit the rule so it covers it`
}
