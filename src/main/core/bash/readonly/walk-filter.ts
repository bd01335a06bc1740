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
    if (
      !recursive ||
      has(
        '-l',
        '-L',
        '-c',
        '-q',
        '--files-with-matches',
        '--files-without-match',
        '--count',
        '--quiet',
        '--silent',
      )
    )
      return null
    return walkFilter(false, values('--exclude-dir'), values('--include'), values('--exclude'))
  }
  if (name === 'rg') {
    if (
      has(
        '--files',
        '--type-list',
        '-l',
        '--files-with-matches',
        '--files-without-match',
        '-c',
        '--count',
        '--count-matches',
        '-q',
        '--quiet',
      )
    )
      return null
    const hidden = has('--hidden', '-.') || flags.filter((flag) => flag.flag === '-u').length >= 2
    const globs = values('-g', '--glob', '--iglob')
    return walkFilter(
      !hidden,
      [],
      globs.filter((glob) => !glob.startsWith('!')),
      globs.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1)),
    )
  }
  if (name === 'diff' && !words.includes('-q') && !words.includes('--brief'))
    return walkFilter(false, [], [], [])
  return null
}

/**
 * git reading files it does not track, under the folders it is given or runs in: `git grep
 * --no-index`/`--untracked` (an untracked `.env` among them) and `git diff --no-index A B` on
 * folders. Tracked files are judged from the index. Null when it prints no contents (`printsContents`,
 * from what git prints: `diff --stat`) or only names, counts or an exit status (`grep -l`).
 */
export function gitWalkFilter(
  subcommand: string | undefined,
  parsed: ParsedArgs | undefined,
  printsContents: boolean,
): WalkFilter | null {
  if (!parsed || !printsContents) return null
  const flags = new Set(parsed.flags.map((flag) => flag.flag))
  if (subcommand === 'diff') return flags.has('--no-index') ? walkFilter(false, [], [], []) : null
  if (subcommand !== 'grep' || (!flags.has('--no-index') && !flags.has('--untracked'))) return null
  const namesOnly = ['-l', '-L', '-c', '-q', '--files-with-matches', '--files-without-match', '--count']
  if ([...namesOnly, '--quiet', '--name-only'].some((flag) => flags.has(flag))) return null
  return walkFilter(false, [], [], [])
}

// grep's and rg's patterns are fnmatch and gitignore globs: `*` takes a leading dot too.
const FILTER_SEMANTICS = globSemantics({
  shell: 'bash',
  options: new Set(['dotglob', 'globasciiranges']),
  characters: 'utf8',
})

function walkFilter(
  skipsHidden: boolean,
  folders: string[],
  includes: string[],
  excludes: string[],
): WalkFilter {
  // A pattern this reading cannot follow (rg's `{a,b}`, a path) filters nothing: every file counts.
  const matchers = (patterns: string[]) =>
    patterns.map((pattern) => (/[{}/]/.test(pattern) ? null : compileSegment(pattern, FILTER_SEMANTICS)))
  const include = matchers(includes)
  const exclude = matchers(excludes).filter((matcher) => matcher !== null)
  const skipped = matchers(folders).filter((matcher) => matcher !== null)
  return {
    skipsHidden,
    skipsFolder: (name) => skipped.some((matcher) => matcher(name)),
    readsFile: (name) =>
      (include.length === 0 || include.some((matcher) => matcher === null || matcher(name))) &&
      !exclude.some((matcher) => matcher(name)),
    key: `${skipsHidden}\0${folders.join('\0')}`,
  }
}
