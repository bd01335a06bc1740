import type { CommandVerdict } from '../bash/verdict'
import type { MatchedRule, RuleSource } from './permission-types'

/**
 * The sentences a person reads about a decision: plain words, each said once, no internal ids
 * (no `mode.build.highRisk`, no `session:<uuid>`). The rule's file stays available as data
 * (decision.rules, ruleFile) for whoever wants to open it.
 */

const WHERE: Record<RuleSource, string> = {
  session: 'this session',
  local: 'this workspace',
  workspace: 'shared with the repository',
  user: 'all workspaces',
}

export function describeRuleSource(source: RuleSource): string {
  return WHERE[source]
}

function ruleNamed(rule: MatchedRule): string {
  // A repository's file may hold rules nobody here wrote: not "your" rule.
  if (rule.source === 'workspace') return `the repository's rule \`${rule.rule}\``
  return `your rule \`${rule.rule}\` (${WHERE[rule.source]})`
}

/** At most this many part reasons in one sentence; the rest are counted. */
const REASONS_NAMED = 2

/**
 * Why the command is not read-only, in the verdict's own words: each part's reason ("rm deletes
 * files", "wait is not a known read-only command", "$DIR is a variable expanded at run time"), or,
 * when no single command is to blame (a loop, `&`, a subshell), the verdict's reason. Never "`x` can
 * change files" for a command that only waits or prints.
 */
function whyNotReadOnly(verdict: CommandVerdict): string {
  // A line that does not parse has no commands to name; say so instead of "this command can …".
  if (!verdict.parsed) return `this command could not be read as plain commands (${verdict.reason})`
  const reasons: string[] = []
  for (const part of verdict.parts)
    if (!part.readOnly && part.reason !== '' && !reasons.includes(part.reason)) reasons.push(part.reason)
  if (reasons.length === 0) return verdict.reason.replace(/\.$/, '')
  const named = reasons.slice(0, REASONS_NAMED).join('; ')
  const more = reasons.length - REASONS_NAMED
  return more > 0 ? `${named}; and ${more} more` : named
}

export const decisionText = {
  deniedByRule: (rule: MatchedRule) => `Denied by ${ruleNamed(rule)}.`,
  askedByRule: (rule: MatchedRule) => `Needs your approval: ${ruleNamed(rule)} asks first.`,
  readOnly: (verdict: CommandVerdict) => `Read-only: ${verdict.reason}.`.replace(/\.\.$/, '.'),
  planDenied: (verdict: CommandVerdict) =>
    `Plan mode runs only read-only commands, and ${whyNotReadOnly(verdict)}.`,
  yolo: () => 'Allowed: yolo mode runs every command without asking.',
  allowedByRules: (rules: MatchedRule[]) => {
    const unique = rules.filter((rule, i) => rules.findIndex((r) => r.rule === rule.rule) === i)
    return `Allowed by ${unique.map(ruleNamed).join(' and ')}.`
  },
  needsApproval: (verdict: CommandVerdict) => `Needs your approval: ${whyNotReadOnly(verdict)}.`,
  /** A read-only command that touches a secret or a place outside the workspace (issue 13 class 6). */
  readsFirst: (concerns: string) => `Needs your approval: it only reads, but it ${concerns}.`,
}
