import type { Connector, EnvAssignment, Redirect } from '../verdict'

/** One simple command as bash will run it, before any policy is applied. */
export interface AnalyzedCommand {
  /** The source text of this simple command. */
  text: string
  /** Words after quote removal; null when any word is expanded at run time. */
  argv: string[] | null
  envAssignments: EnvAssignment[]
  redirects: Redirect[]
  connector: Connector | null
  /** Source text of every part expanded at run time (`$(…)`, `$x`, `{a,b}`…), in order. */
  dynamicParts: string[]
  /** Indexes into argv of words that start with an unquoted glob (`*`, `?`, `[…]`). */
  leadingGlobArgs: number[]
  /** Indexes into argv of words holding an unquoted glob anywhere. */
  globArgs: number[]
  /**
   * Per word (aligned with wordValues): how a shell may glob it, or null for a word no shell globs
   * (issue 21.2). Words that bash's brace expansion made are here one by one.
   */
  globs: Array<WordGlob | null>
  /** Some word went through brace expansion (`cat {a,b}.txt`): the argv is bash's, not the text's. */
  braceExpanded: boolean
  /** Each word's value, null for a word expanded at run time (argv keeps only fully static lines). */
  wordValues: Array<string | null>
  /**
   * Every run-time part of the words (not of assignments or redirects), in order: plain `$NAME`
   * / `${NAME}` parameters, `$(…)` command substitutions with their inner text, or anything else.
   */
  wordExpansions: WordExpansion[]
  /** Whether an assignment or a redirect also holds a run-time part. */
  dynamicOutsideWords: boolean
  /**
   * Set for a `[[ … ]]` or `(( … ))` the analysis judged itself (test-expression.ts, literal-arithmetic.ts): only
   * looks and computes. A word can never set it, so a command named `[[` is not mistaken for one.
   */
  keyword?: '[[' | '(('
}

export interface WordGlob {
  /** The word as a pattern, each quoted character backslash-escaped. */
  pattern: string
  /** What every word the glob makes starts with: `./` for `./*.md`, empty for `''*`. */
  prefix: string
  /** bash globs it (`*`, `?`, `[…]`), whatever its options. */
  bash: boolean
  /** zsh globs it when EXTENDED_GLOB is on (`^x`, `a#`, `HEAD~1`): bash reads it as text. */
  zsh: boolean
}

export type WordExpansion =
  | { kind: 'parameter'; text: string }
  | { kind: 'command'; text: string; inner: string }
  | { kind: 'other'; text: string }

/** The parse step of classify: what the line contains, with nothing judged yet. */
export interface CommandAnalysis {
  command: string
  parsed: boolean
  /** Why the line did not parse; null when it did. */
  parseError: string | null
  commands: AnalyzedCommand[]
  /** Node kinds that were not walked (subshell, if, for, function, background `&`, …). */
  unsupported: string[]
  /** parsed, nothing unsupported, nothing dynamic. */
  permissionSafe: boolean
}
