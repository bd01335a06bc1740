import type { ApprovalWhy } from '../permissions/approval-broker-types'
import type { PermissionDecision } from '../permissions/permission-types'
import type { CommandVerdict } from '../bash/verdict'
import type { DecidedBy } from '../settings/audit-entry'

/** The audit log's word for how an automatic decision was reached (ask never decides by itself). */
export function decidedByOf(decision: PermissionDecision): DecidedBy {
  switch (decision.basis) {
    case 'mode.build.readOnly':
    case 'mode.plan.readOnly':
      return 'read_only'
    case 'rule.allow':
      return 'rule'
    case 'rule.deny':
      return 'deny_rule'
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
