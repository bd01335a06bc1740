import type { NearMiss, RuleSet } from './permission-types'
import { findAllowCover, ruleMatchesPart, rulesOf, type SourcedRule } from './rule-match'
import type { CommandSubjects, PartSubject } from './rule-subjects'

/**
 * The allow rule that almost matched, shown on the approval card so the user sees why a rule they
 * saved did not apply. Ranked: the rule matched but plan mode came first; it would match but the
 * command allows exact rules only; it covers some of the commands; it names the same command.
 */
export function findNearMiss(
  subjects: CommandSubjects,
  ruleSets: readonly RuleSet[],
  planMode: boolean,
): NearMiss | null {
  if (planMode) {
    const cover = findAllowCover(subjects, ruleSets)
    const first = cover?.[0]
    if (first) {
      return {
        rule: first.rule,
        source: first.source,
        file: first.file,
        relation: 'plan_mode',
        explanation: `"${first.rule}" allows this command, but plan mode denies commands that are not read-only before allow rules apply`,
      }
    }
  }
  const pending = subjects.parts.filter((subject) => !subject.part.readOnly)
  if (pending.length === 0) return null
  let best: { score: number; miss: NearMiss } | null = null
  const consider = (
    score: number,
    sourced: SourcedRule,
    relation: NearMiss['relation'],
    explanation: string,
  ) => {
    if (best === null || score > best.score) {
      best = {
        score,
        miss: { rule: sourced.rule.text, source: sourced.source, file: sourced.file, relation, explanation },
      }
    }
  }
  for (const sourced of rulesOf(ruleSets, 'allow')) {
    const covered = pending.filter((subject) => ruleMatchesPart(sourced.rule, subject))
    const missing = pending.filter((subject) => !covered.includes(subject))
    if (covered.length > 0 && missing.length === 0 && subjects.exactOnlyReason !== null) {
      consider(
        3_000,
        sourced,
        'exact_only',
        `"${sourced.rule.text}" would match, but ${subjects.exactOnlyReason}, so only an exact rule can match`,
      )
    } else if (covered.length > 0) {
      consider(
        2_000 + covered.length,
        sourced,
        'partial',
        `"${sourced.rule.text}" covers ${quoted(covered)} but not ${quoted(missing)}; an allow rule must cover every command that is not read-only`,
      )
    } else if (sourced.rule.kind !== 'wildcard' && sourced.rule.words !== null) {
      const ruleWords = sourced.rule.words
      const shared = Math.max(...pending.map((subject) => sharedLeadingWords(ruleWords, subject)))
      if (shared > 0) {
        consider(
          1_000 + shared,
          sourced,
          'same_command',
          `"${sourced.rule.text}" names ${ruleWords.slice(0, shared).join(' ')}, but does not match ${quoted(pending)}`,
        )
      }
    }
  }
  return (best as { score: number; miss: NearMiss } | null)?.miss ?? null
}

function sharedLeadingWords(ruleWords: readonly string[], subject: PartSubject): number {
  const count = (words: readonly string[]) => {
    let i = 0
    while (i < ruleWords.length && i < words.length && ruleWords[i] === words[i]) i += 1
    return i
  }
  return Math.max(count(subject.words), subject.actionPath ? count(subject.actionPath) : 0)
}

function quoted(subjects: readonly PartSubject[]): string {
  return subjects.map((subject) => `"${subject.part.text}"`).join(', ')
}
