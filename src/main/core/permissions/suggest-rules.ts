import { hasReadOnlyTable } from '../bash/readonly/read-only-form'
import type { CommandVerdict } from '../bash/verdict'
import { type CommandRegistry, loadCommandRegistry } from './command-registry'
import { joinWords } from './command-words'
import { SUGGESTION_WRAPPER_DEPTH, unwrapCommand } from './command-wrappers'
import { commandSubjects } from './rule-subjects'
import { validateBashRule } from './rule-syntax'

/** seed 003: more prefixes than this and one exact rule is clearer. */
export const MAX_PREFIX_SUGGESTIONS = 5

/**
 * The "always allow" rules offered for a command (seed 003, buildSuggestedUpdates): one `prefix:*`
 * per non-read-only simple command, or, when any has no stable prefix or there would be more than
 * five, the exact command line. A prefix is only offered where it can match (no redirect, nothing
 * dynamic), so a suggestion never covers a redirect; program-running roots (`find -exec`) get none,
 * and neither does a command with a read-only flag table, whose refusal was one of its flags.
 */
export function suggestRules(
  verdict: CommandVerdict,
  registry: CommandRegistry = loadCommandRegistry(),
): string[] {
  // A line that does not parse (`echo "unbalanced`) has no commands a rule could name; saving it
  // as an exact rule would only ever match that broken text.
  if (verdict.readOnly || !verdict.parsed) return []
  const subjects = commandSubjects(verdict, registry)
  // Only what the settings store would accept: no NUL, not over the rule length cap.
  const exact = validateBashRule(subjects.command) === null ? [subjects.command] : []
  if (subjects.exactOnlyReason !== null) return exact
  const prefixes: string[] = []
  for (const subject of subjects.parts) {
    if (subject.part.readOnly) continue
    // `sort -o out in` is not read-only only because of -o: `sort:*` would allow `sort -o ~/.bashrc`.
    const unwrapped = unwrapCommand(subject.part.argv ?? [], SUGGESTION_WRAPPER_DEPTH)
    if (unwrapped === null || hasReadOnlyTable(unwrapped.argv)) return exact
    // A `*` anywhere (even quoted, `env 'A=*'`) would turn the rule into a wildcard.
    if (subject.actionPath === null || subject.actionPath.some((word) => word.includes('*'))) return exact
    const rule = `${joinWords(subject.actionPath)}:*`
    if (validateBashRule(rule) !== null) return exact
    if (!prefixes.includes(rule)) prefixes.push(rule)
  }
  if (prefixes.length === 0 || prefixes.length > MAX_PREFIX_SUGGESTIONS) return exact
  return prefixes
}
