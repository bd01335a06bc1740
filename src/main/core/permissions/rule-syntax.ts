import { splitRuleWords } from './command-words'

/**
 * The three rule forms (seed 003, 规则匹配的主语):
 * - exact: the whole command line, or one simple command's words, equal the rule;
 * - prefix `words:*`: the command's words start with `words` (word boundary, never mid-word);
 * - wildcard: any other rule containing `*`, where `*` matches any run of characters.
 */
export type BashRule =
  /** words is null when the text does not split (a here-doc body with a lone quote): it then matches only the whole line. */
  | { kind: 'exact'; text: string; words: string[] | null }
  | { kind: 'prefix'; text: string; words: string[] }
  | { kind: 'wildcard'; text: string; segments: string[] }

export const RULE_MAX_LENGTH = 2_000

/** Parses rule text; throws with a message a user can act on when the rule cannot mean anything. */
export function parseBashRule(text: string): BashRule {
  const trimmed = text.trim()
  if (trimmed === '') throw new Error('a rule cannot be empty')
  if (trimmed.length > RULE_MAX_LENGTH) throw new Error(`a rule is at most ${RULE_MAX_LENGTH} characters`)
  if (trimmed.includes('\0')) throw new Error('a rule cannot contain a NUL byte')
  if (trimmed.endsWith(':*') && !trimmed.slice(0, -2).includes('*')) {
    const words = splitRuleWords(trimmed.slice(0, -2))
    if (words === null) throw new Error(`rule "${trimmed}" has an unterminated quote`)
    if (words.length === 0)
      throw new Error(`rule "${trimmed}" has no command before ":*" (use "*" to match everything)`)
    return { kind: 'prefix', text: trimmed, words }
  }
  if (trimmed.includes('*')) return { kind: 'wildcard', text: trimmed, segments: trimmed.split('*') }
  return { kind: 'exact', text: trimmed, words: splitRuleWords(trimmed) }
}

/** The settings store's validateRule hook: an error message, or null when the rule is usable. */
export function validateBashRule(text: string): string | null {
  try {
    parseBashRule(text)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * `*` matches any run of characters. Matched without a RegExp: each literal piece is placed at its
 * leftmost position, which is exact for `*`-only globs and linear in practice, so a hostile rule such
 * as `*a*a*a*a*b` cannot stall a decision on a long command the way a backtracking RegExp would.
 */
export function wildcardMatches(segments: readonly string[], text: string): boolean {
  const first = segments[0] as string
  const last = segments[segments.length - 1] as string
  if (segments.length === 1) return text === first
  if (!text.startsWith(first) || text.length < first.length + last.length) return false
  let at = first.length
  const end = text.length - last.length
  for (let i = 1; i < segments.length - 1; i += 1) {
    const piece = segments[i] as string
    const found = text.indexOf(piece, at)
    if (found === -1 || found + piece.length > end) return false
    at = found + piece.length
  }
  return text.endsWith(last) && at <= end
}

/** True when `words` begins with every word of `prefix`. */
export function startsWithWords(words: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > words.length) return false
  return prefix.every((word, i) => words[i] === word)
}

export function equalWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWithWords(a, b)
}
