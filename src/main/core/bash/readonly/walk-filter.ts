import { compileSegment } from '../places/glob-pattern'
import type { WalkFilter } from '../places/secret-index'
import { globSemantics } from '../places/shell-globbing'
import type { ParsedArgs } from './flag-types'

/**
 * How a command walks its folder operands when it prints what the files under them hold (issue
 * 21.4): grep -r/-R (and `-d recurse`), rg (always), diff on folders. Null when it reads no folder
 * recursively, or prints only names, counts or an exit status (`grep -rl`, `rg -c`, `rg --files`).
 * Its own include and exclude patterns count: `grep -r --include=*.ts` never opens a `.env`.
 */
export function walkFilterFor(
  name: string,
  words: readonly string[],
  parsed: ParsedArgs | null,
): WalkFilter | null {
  const flags = parsed?.flags ?? []
  const has = (...names: string[]) => flags.some((flag) => names.includes(flag.flag))
  const values = (...names: string[]) =>
    flags
      .filter((flag) => names.includes(flag.flag) && flag.value !== null)
      .map((flag) => flag.value as string)
  if (name === 'grep' || name === 'egrep' || name === 'fgrep') {
    const recursive =
      has('-r', '-R', '--recursive', '--dereference-recursive') ||
      values('-d', '--directories').includes('recurse')
    // Names, counts and an exit status (-l, -c, -q) still read every file: whether a guessed pattern
    // is in `.env` tells what `.env` holds, one guess at a time (a red-team finding).
    if (!recursive) return null
    return walkFilter({
      skipsHidden: false,
      folders: values('--exclude-dir'),
      rules: orderedRules(flags, {
        '--include': 'include',
        '--exclude': 'exclude',
        '--exclude-from': 'exclude',
      }),
      // grep: a file no option matches is read unless the first option was --include.
      unmatched: (rules) => rules[0]?.kind !== 'include',
    })
  }
  if (name === 'rg') {
    // --files and --type-list open no file; -l, -c and -q read them all, as grep's do.
    if (has('--files', '--type-list')) return null
    const hidden = has('--hidden', '-.') || flags.filter((flag) => flag.flag === '-u').length >= 2
    const allCaseless = has('--glob-case-insensitive')
    const rules = flags.flatMap((flag): FilterRule[] => {
      if (flag.value === null || !['-g', '--glob', '--iglob'].includes(flag.flag)) return []
      const negated = flag.value.startsWith('!')
      const caseless = allCaseless || flag.flag === '--iglob'
      return [
        {
          kind: negated ? 'exclude' : 'include',
          pattern: negated ? flag.value.slice(1) : flag.value,
          caseless,
        },
      ]
    })
    // A type (`-t`, with `--type-add` or built in) whitelists by globs of its own: every file counts.
    const typed = has('-t', '--type', '--type-add')
    // An ignore file named on the line (stdin too) may hold `!.env`: its lines are not known here.
    const ownIgnoreFile = has('--ignore-file', '--ignore-file-case-insensitive')
    return walkFilter({
      // A whitelisting glob or type lets rg into hidden files too (`rg -g .env`), and so does a
      // `!` line in an ignore file the walk meets (secret-index.ts).
      skipsHidden: !hidden && !typed && !ownIgnoreFile && !rules.some((rule) => rule.kind === 'include'),
      hiddenUnlessIgnoreFilesNegate: true,
      folders: [],
      rules: typed ? [] : rules,
      // rg: with any whitelisting glob, a file none matches is not searched.
      unmatched: (rules) => !rules.some((rule) => rule.kind === 'include'),
    })
  }
  if (name === 'diff' && !words.includes('-q') && !words.includes('--brief')) return walkFilter(EVERY_FILE)
  return null
}

/**
 * git reading files it does not track, under the folders it is given or runs in: `git grep
 * --no-index`/`--untracked` (an untracked `.env` among them) and `git diff --no-index A B` on
 * folders. Tracked files are judged from the index. Null when it prints no contents (`printsContents`,
 * from what git prints: `diff --stat`); names, counts and an exit status (`grep -l`) answer guesses.
 */
export function gitWalkFilter(
  subcommand: string | undefined,
  parsed: ParsedArgs | undefined,
  printsContents: boolean,
): WalkFilter | null {
  if (!parsed || !printsContents) return null
  const flags = new Set(parsed.flags.map((flag) => flag.flag))
  if (subcommand === 'diff') return flags.has('--no-index') ? walkFilter(EVERY_FILE) : null
  if (subcommand !== 'grep' || (!flags.has('--no-index') && !flags.has('--untracked'))) return null
  // Names and counts answer guesses about what the files hold, as grep's do.
  return walkFilter(EVERY_FILE)
}

// grep's and rg's patterns are fnmatch and gitignore globs: `*` takes a leading dot too.
const FILTER_SEMANTICS = globSemantics({
  shell: 'bash',
  options: new Set(['dotglob', 'globasciiranges']),
  characters: 'utf8',
})

/** One include or exclude pattern, in the order the command line gives them. */
interface FilterRule {
  kind: 'include' | 'exclude'
  /** Null for a pattern read from a file at run time (grep --exclude-from). */
  pattern: string | null
  caseless?: boolean
}

interface FilterShape {
  skipsHidden: boolean
  /** rg: a `!` line in an ignore file (`.ignore`, `.rgignore`, `.gitignore`) lets it into hidden files. */
  hiddenUnlessIgnoreFilesNegate?: boolean
  folders: string[]
  rules: FilterRule[]
  /** Whether a file that no rule matches is read. */
  unmatched: (rules: FilterRule[]) => boolean
}

const EVERY_FILE: FilterShape = { skipsHidden: false, folders: [], rules: [], unmatched: () => true }

function orderedRules(
  flags: ParsedArgs['flags'],
  kinds: Record<string, 'include' | 'exclude'>,
): FilterRule[] {
  return flags.flatMap((flag): FilterRule[] => {
    const kind = kinds[flag.flag]
    if (!kind || flag.value === null) return []
    return [{ kind, pattern: flag.flag === '--exclude-from' ? null : flag.value }]
  })
}

const CASELESS_SEMANTICS = globSemantics({
  shell: 'bash',
  options: new Set(['dotglob', 'globasciiranges', 'nocaseglob']),
  characters: 'utf8',
})

/**
 * The last rule that matches a name decides, as in GNU grep ("the last matching one wins") and
 * rg (later globs override earlier ones); a name none matches is read or not by the tool's own
 * default. A pattern this reading cannot follow (rg's `{a,b}`, a path) matches every name when it
 * includes, and none when it excludes: every file it might let in counts.
 */
function walkFilter(shape: FilterShape): WalkFilter {
  const compiled = shape.rules.map((rule) => {
    const followable = rule.pattern !== null && !/[{}/]/.test(rule.pattern)
    const matcher = followable
      ? compileSegment(rule.pattern as string, rule.caseless ? CASELESS_SEMANTICS : FILTER_SEMANTICS)
      : null
    return { kind: rule.kind, matches: (name: string) => (matcher ? matcher(name) : rule.kind === 'include') }
  })
  const unmatched = shape.unmatched(shape.rules)
  const skipped = shape.folders
    .map((pattern) => (/[{}/]/.test(pattern) ? null : compileSegment(pattern, FILTER_SEMANTICS)))
    .filter((matcher) => matcher !== null)
  return {
    skipsHidden: shape.skipsHidden,
    hiddenUnlessIgnoreFilesNegate: shape.hiddenUnlessIgnoreFilesNegate === true,
    skipsFolder: (name) => skipped.some((matcher) => matcher(name)),
    readsFile: (name) => {
      for (let at = compiled.length - 1; at >= 0; at--) {
        const rule = compiled[at]!
        if (rule.matches(name)) return rule.kind === 'include'
      }
      return unmatched
    },
    key: `${shape.skipsHidden}\0${shape.hiddenUnlessIgnoreFilesNegate === true}\0${shape.folders.join('\0')}`,
  }
}

/** A walk that reads whatever any of these reads; null when none walks. */
export function unionOfWalks(walks: ReadonlyArray<WalkFilter | null>): WalkFilter | null {
  const found = walks.filter((walk): walk is WalkFilter => walk !== null)
  if (found.length <= 1) return found[0] ?? null
  return {
    skipsHidden: found.every((walk) => walk.skipsHidden),
    hiddenUnlessIgnoreFilesNegate: found.some((walk) => walk.hiddenUnlessIgnoreFilesNegate === true),
    skipsFolder: (name) => found.every((walk) => walk.skipsFolder(name)),
    readsFile: (name) => found.some((walk) => walk.readsFile(name)),
    key: found.map((walk) => walk.key).join('|'),
  }
}
