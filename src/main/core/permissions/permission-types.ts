import type { PermissionMode, PermissionRules } from '../../../shared/settings'
import type { BashRule } from './rule-syntax'

/** Where a list of rules came from; the decision names it so the user can find and edit the rule. */
export type RuleSource = 'user' | 'workspace' | 'local' | 'session'

export interface RuleSet {
  source: RuleSource
  /** The settings file (or `session:<id>`); null when the rules were given in memory. */
  file: string | null
  rules: PermissionRules
}

export type RuleBehavior = 'allow' | 'ask' | 'deny'

export type DecisionOutcome = 'allow' | 'ask' | 'deny'

/** Which branch decided, named like the seed's rule ids (mode.build.readOnly, …). */
export type DecisionBasis =
  | 'rule.deny'
  | 'rule.ask'
  | 'mode.plan.readOnly'
  | 'mode.plan.nonReadOnly'
  | 'mode.yolo'
  | 'mode.build.readOnly'
  | 'rule.allow'
  | 'mode.build.highRisk'
  | 'readOnly.asksFirst'
  /** A built-in rule no settings file can loosen: Shellgate's own controls are never an agent's (issue 20). */
  | 'builtin.ownControls'

export interface MatchedRule {
  behavior: RuleBehavior
  rule: string
  kind: BashRule['kind']
  source: RuleSource
  file: string | null
  /** The text it matched: the whole command or one simple command. */
  matched: string
}

/** An allow rule that came close, for the approval card ("npm test:* would match, but …"). */
export interface NearMiss {
  rule: string
  source: RuleSource
  file: string | null
  relation: 'plan_mode' | 'exact_only' | 'partial' | 'same_command'
  explanation: string
}

export interface PermissionDecision {
  outcome: DecisionOutcome
  basis: DecisionBasis
  mode: PermissionMode
  readOnly: boolean
  /** One line a user can act on. */
  reason: string
  /** The rule(s) that decided: one deny/ask rule, or one allow rule per non-read-only command. */
  rules: MatchedRule[]
  nearMiss: NearMiss | null
}
