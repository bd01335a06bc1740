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

/** `touch`, `touch` and `rm`, `a`, `b` and `c`: the commands that are not read-only, by name. */
export function changingCommands(verdict: CommandVerdict): string {
  const names: string[] = []
  for (const part of verdict.parts) {
    if (part.readOnly) continue
    const name = part.argv?.[0] ?? part.text.trim().split(/\s+/)[0] ?? ''
    if (name !== '' && !names.includes(name)) names.push(name)
  }
  if (names.length === 0) return 'this command'
  const quoted = names.slice(0, 4).map((name) => `\`${name}\``)
  if (names.length > 4) quoted.push(`${names.length - 4} more`)
  if (quoted.length === 1) return quoted[0] as string
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`
}

function canChange(verdict: CommandVerdict): string {
  const who = changingCommands(verdict)
  // A line that does not parse has no commands to name; say so instead of "this command can …".
  if (!verdict.parsed) return `this command could not be read as plain commands (${verdict.reason})`
  return `${who} can change files`
}

export const decisionText = {
  deniedByRule: (rule: MatchedRule) => `Denied by ${ruleNamed(rule)}.`,
  askedByRule: (rule: MatchedRule) => `Needs your approval: ${ruleNamed(rule)} asks first.`,
  readOnly: (verdict: CommandVerdict) => `Read-only: ${verdict.reason}.`.replace(/\.\.$/, '.'),
  planDenied: (verdict: CommandVerdict) =>
    `Plan mode runs only read-only commands, and ${canChange(verdict)}.`,
  yolo: () => 'Allowed: yolo mode runs every command without asking.',
  allowedByRules: (rules: MatchedRule[]) => {
    const unique = rules.filter((rule, i) => rules.findIndex((r) => r.rule === rule.rule) === i)
    return `Allowed by ${unique.map(ruleNamed).join(' and ')}.`
  },
  needsApproval: (verdict: CommandVerdict) => `Needs your approval: ${canChange(verdict)}.`,
  /** A read-only command that touches a secret or a place outside the workspace (issue 13 class 6). */
  readsFirst: (concerns: string) => `Needs your approval: it only reads, but it ${concerns}.`,
}
