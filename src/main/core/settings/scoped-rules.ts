import type { PermissionRules } from '../../../shared/settings'

/**
 * Where an always-allow (or any) rule lives: this session only; this workspace on this machine
 * (`local`, under SHELLGATE_HOME, the default); this workspace shared with the repository
 * (`workspace`, `<workspace>/.shellgate/settings.json`); or every workspace (`user`).
 */
export type RuleScope = 'session' | 'local' | 'workspace' | 'user'
export const RULE_SCOPES: readonly RuleScope[] = ['session', 'local', 'workspace', 'user']
export type RuleList = 'allow' | 'ask' | 'deny'
export const RULE_LISTS: readonly RuleList[] = ['allow', 'ask', 'deny']

/** A rule with where it came from, so the UI and the audit log can name its file. */
export interface ScopedRule {
  list: RuleList
  rule: string
  scope: RuleScope
  /** The settings file it is saved in; for session rules `session:<id>`. */
  source: string
}

export function emptyRules(): PermissionRules {
  return { allow: [], ask: [], deny: [] }
}

export function withRule(rules: PermissionRules, list: RuleList, rule: string): PermissionRules {
  if (rules[list].includes(rule)) return rules
  return { ...rules, [list]: [...rules[list], rule] }
}

export function withoutRule(rules: PermissionRules, list: RuleList, rule: string): PermissionRules {
  return { ...rules, [list]: rules[list].filter((existing) => existing !== rule) }
}

export function toScopedRules(rules: PermissionRules, scope: RuleScope, source: string): ScopedRule[] {
  return RULE_LISTS.flatMap((list) => rules[list].map((rule) => ({ list, rule, scope, source })))
}
