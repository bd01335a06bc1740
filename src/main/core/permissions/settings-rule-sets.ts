import type { ScopedRule } from '../settings/scoped-rules'
import type { PermissionDecision, RuleSet } from './permission-types'

/**
 * Adapters between the settings store, the decision, and the wire. The decision takes rule lists
 * as data; these turn the store's scoped rules into them, and a decision into the contract's
 * BashDecision shape (src/shared/ipc/domains/bash.ts).
 */

/** Groups the store's rules by (scope, file), keeping the store's order: session, workspace, user. */
export function ruleSetsFromScoped(scoped: readonly ScopedRule[]): RuleSet[] {
  const sets: RuleSet[] = []
  for (const rule of scoped) {
    const file = rule.scope === 'session' ? null : rule.source
    let set = sets.find((candidate) => candidate.source === rule.scope && candidate.file === file)
    if (!set) {
      set = { source: rule.scope, file, rules: { allow: [], ask: [], deny: [] } }
      sets.push(set)
    }
    set.rules[rule.list].push(rule.rule)
  }
  return sets
}

export interface BashDecisionSummary {
  outcome: PermissionDecision['outcome']
  decidedBy: string
  reason: string
  rule: string | null
  ruleFile: string | null
}

/** The first deciding rule and its file, as the contract's BashDecision carries them. */
export function summarizeDecision(decision: PermissionDecision): BashDecisionSummary {
  const first = decision.rules[0]
  return {
    outcome: decision.outcome,
    decidedBy: decision.basis,
    reason: decision.reason,
    rule: first?.rule ?? null,
    ruleFile: first ? (first.file ?? `${first.source} rules`) : null,
  }
}
