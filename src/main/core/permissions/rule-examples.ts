import type { PermissionRules } from '../../../shared/settings'
import { classifyCommand } from '../bash/classify'
import type { CommandVerdict } from '../bash/verdict'
import { decideBashPermission } from './decide-permission'
import type { RuleBehavior } from './permission-types'
import { validateBashRule } from './rule-syntax'

const LISTS: readonly RuleBehavior[] = ['allow', 'ask', 'deny']

/**
 * Issue 22.8: a rule's examples (permissions.examples: {rule: {matches, doesNotMatch}}) are
 * checked when the rules load, each against that rule alone, the way the decision matches it (an
 * allow rule must cover every part that writes; a deny or ask rule any part, through wrappers).
 * The first example that fails is the error, naming the rule; null when all hold.
 */
export function ruleExamplesProblem(permissions: PermissionRules | undefined, cwd: string): string | null {
  // Issue 22.8: the file refuses what the form refuses (`:*` alone, an unterminated quote), instead
  // of a rule that silently matches nothing.
  for (const list of LISTS)
    for (const rule of permissions?.[list] ?? []) {
      const problem = validateBashRule(rule)
      if (problem) return `permissions.${list}: ${problem}`
    }
  for (const [rule, examples] of Object.entries(permissions?.examples ?? {})) {
    const list = LISTS.find((each) => permissions?.[each].includes(rule))
    if (!list) return `permissions.examples: "${rule}" is not a rule in allow, ask or deny`
    const only: PermissionRules = { allow: [], ask: [], deny: [], [list]: [rule] }
    const matches = (command: string) =>
      decideBashPermission({
        verdict: needingRules(classifyCommand(command, { cwd })),
        mode: 'build',
        ruleSets: [{ source: 'user', file: null, rules: only }],
      }).rules.some((matched) => matched.rule === rule)
    for (const command of examples.matches)
      if (!matches(command))
        return `permissions.examples: the ${list} rule "${rule}" does not match "${command}", which its examples say it must`
    for (const command of examples.doesNotMatch)
      if (matches(command))
        return `permissions.examples: the ${list} rule "${rule}" matches "${command}", which its examples say it must not`
  }
  return null
}

/**
 * A read-only command runs without any rule, so `git status` could never show that `git *` matches
 * it: an example that is read-only throughout is matched as if each of its parts needed the rule.
 */
function needingRules(verdict: CommandVerdict): CommandVerdict {
  if (!verdict.readOnly) return verdict
  return { ...verdict, readOnly: false, parts: verdict.parts.map((part) => ({ ...part, readOnly: false })) }
}
