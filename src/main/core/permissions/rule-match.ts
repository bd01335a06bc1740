import type { MatchedRule, RuleBehavior, RuleSet, RuleSource } from './permission-types'
import type { CommandSubjects, PartSubject } from './rule-subjects'
import { type BashRule, equalWords, parseBashRule, startsWithWords, wildcardMatches } from './rule-syntax'

/**
 * Matching (seed 003, evaluateBashRules): an allow rule must cover every non-read-only simple
 * command; a deny or ask rule needs only one. The whole command line equal to an exact rule always
 * matches.
 */

export interface SourcedRule {
  rule: BashRule
  source: RuleSource
  file: string | null
}

/** Rules of one behaviour in source order; a rule that does not parse can match nothing and is skipped. */
export function rulesOf(ruleSets: readonly RuleSet[], behavior: RuleBehavior): SourcedRule[] {
  const out: SourcedRule[] = []
  for (const set of ruleSets) {
    for (const text of set.rules[behavior]) {
      try {
        out.push({ rule: parseBashRule(text), source: set.source, file: set.file })
      } catch {
        // validateBashRule rejects these when they are saved; a hand-edited file may still hold one.
      }
    }
  }
  return out
}

function matched(behavior: RuleBehavior, sourced: SourcedRule, text: string): MatchedRule {
  return {
    behavior,
    rule: sourced.rule.text,
    kind: sourced.rule.kind,
    source: sourced.source,
    file: sourced.file,
    matched: text,
  }
}

/**
 * seed 003: a rule whose text equals the whole command line always matches, whatever its form —
 * `ls *.txt` saved as an exact rule is also a wildcard, and must still allow `ls *.txt` itself.
 */
function wholeCommandMatches(rule: BashRule, command: string): boolean {
  return rule.text === command
}

/** Prefix/wildcard/exact against one simple command's words (and its action path for prefixes). */
export function ruleMatchesPart(rule: BashRule, subject: PartSubject): boolean {
  const words = subject.words
  if (rule.kind === 'exact') return rule.words !== null && equalWords(words, rule.words)
  if (rule.kind === 'prefix') {
    return (
      startsWithWords(words, rule.words) ||
      (subject.actionPath !== null && startsWithWords(subject.actionPath, rule.words))
    )
  }
  return wildcardMatches(rule.segments, words.join(' '))
}

/** The first deny (or ask) rule that matches any part, looking through wrappers; null when none. */
export function findRestrictingRule(
  subjects: CommandSubjects,
  ruleSets: readonly RuleSet[],
  behavior: 'deny' | 'ask',
): MatchedRule | null {
  for (const sourced of rulesOf(ruleSets, behavior)) {
    const { rule } = sourced
    if (wholeCommandMatches(rule, subjects.command)) return matched(behavior, sourced, subjects.command)
    if (rule.kind === 'wildcard' && wildcardMatches(rule.segments, subjects.command))
      return matched(behavior, sourced, subjects.command)
    for (const subject of subjects.parts) {
      const reached = subject.inner.some((words) =>
        ruleMatchesPart(rule, { ...subject, words, actionPath: null }),
      )
      if (reached || ruleMatchesPart(rule, subject)) return matched(behavior, sourced, subject.part.text)
    }
    // A command we could not fully analyse may hide the denied program in a subshell, a loop or a
    // dynamic word (`rm${IFS}-rf`): when in doubt, the rule's words named anywhere, in order, count.
    if (
      (!subjects.permissionSafe || subjects.parts.some((subject) => !subject.static)) &&
      rule.kind !== 'wildcard' &&
      rule.words !== null &&
      mentionsCommand(subjects.command, rule.words)
    ) {
      return matched(behavior, sourced, subjects.command)
    }
  }
  return null
}

/** A word's edge: anything a shell word of a command name cannot continue with (`$`, `/`, quotes…). */
const WORD_CHAR = /[A-Za-z0-9_.+-]/

/**
 * The rule's words appear in `text` in order, each as a whole word. Greedy and linear: each word is
 * taken at its leftmost whole-word occurrence after the previous one, which is exact for "in order,
 * anything between" (a later match can only leave less room for the words after it). A RegExp with
 * lazy gaps backtracked exponentially on a repeated word, and a repository's own deny rule could
 * freeze the main process with it.
 */
export function mentionsCommand(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false
  let from = 0
  for (const word of words) {
    const at = findWholeWord(text, word, from)
    if (at === -1) return false
    from = at + word.length
  }
  return true
}

function findWholeWord(text: string, word: string, from: number): number {
  if (word === '') return from
  for (let at = text.indexOf(word, from); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? '' : text.charAt(at - 1)
    const after = text.charAt(at + word.length)
    if ((before === '' || !WORD_CHAR.test(before)) && (after === '' || !WORD_CHAR.test(after))) return at
  }
  return -1
}

/**
 * One allow rule per non-read-only part when every such part is covered, else null. Read-only parts
 * are exempt, so `cd app && npm test` needs only `npm test:*`.
 */
export function findAllowCover(
  subjects: CommandSubjects,
  ruleSets: readonly RuleSet[],
): MatchedRule[] | null {
  const allow = rulesOf(ruleSets, 'allow')
  const whole = allow.find((sourced) => wholeCommandMatches(sourced.rule, subjects.command))
  if (whole) return [matched('allow', whole, subjects.command)]
  if (subjects.exactOnlyReason !== null) return null
  const cover: MatchedRule[] = []
  for (const subject of subjects.parts) {
    if (subject.part.readOnly) continue
    const rule = allow.find((sourced) => ruleMatchesPart(sourced.rule, subject))
    if (!rule) return null
    cover.push(matched('allow', rule, subject.part.text))
  }
  return cover.length > 0 ? cover : null
}
