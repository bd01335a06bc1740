import type { AnalyzedCommand } from '../analysis/command-analysis'
import { compileSegment } from '../places/glob-pattern'
import { EVERY_NAME } from '../places/found-links'
import type { WalkFilter } from '../places/secret-index'
import { globSemantics } from '../places/shell-globbing'
import type { PartVerdict } from './part-verdict'

const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir'])
// Inner commands that print their words and open nothing: `-exec echo {} \;` only names the link.
const PRINTS_WORDS_ONLY = new Set(['echo', 'printf', 'basename', 'dirname'])
/** What `{}` stands for when the inner command is judged: a found file, never a flag. */
export const FOUND_FILE = './found-file'

/** A find line cut into find's own words and the commands its -exec actions run. */
interface FindExec {
  /** Indexes (into part.argv) of find's own words, the -exec clauses taken out. */
  own: number[]
  /** Each -exec clause: its words' indexes, with `{}` to be replaced by a found file. */
  inner: number[][]
}

/**
 * Issue 21.5: `find … -exec CMD {} \;` (and `+`, `-execdir`, `-ok`, `-okdir`) is judged by what it
 * runs: find without its -exec clauses, then each inner command with `{}` standing for a found
 * file, every one by the same rules as a command of its own. The inner command reads the files
 * find finds, so when it prints what they hold, find's start folders count as read all through
 * (the secret-file walk), filtered by find's own `-name` tests when they all must hold.
 */
export function evaluateFindExec(
  part: AnalyzedCommand,
  offset: number,
  evaluate: (part: AnalyzedCommand) => PartVerdict,
): PartVerdict | null {
  const split = splitFindExec(part.argv as string[], part.globs, offset)
  if (split === null) return null
  if ('problem' in split) return { readOnly: false, reason: split.problem, name: 'find' }
  const find = evaluate(subPart(part, split.own, true))
  if (!find.readOnly) return find
  const paths = [...(find.paths ?? [])]
  let content = false
  let opens = false
  // A reader that walks what it is given (`-exec grep -r x {} +`) reads below every found folder,
  // whatever find's own -name tests say of the names down there; with -R it follows links too.
  let walksFound = false
  let followsFound = false
  let builtOnFound = false
  const names: string[] = []
  for (const clause of split.inner) {
    const inner = evaluate(subPart(part, clause, false))
    const action = (part.argv as string[])[(clause[0] as number) - 1]
    if (!inner.readOnly) return { readOnly: false, reason: `find ${action} ${inner.reason}`, name: 'find' }
    // git's checks (the repository's hooks and config programs, secrets in its history, -C
    // leaving the workspace) are whole-line rules made for a git the line runs itself; one find
    // starts, in whatever folder it runs from, would skip them all (a red-team finding).
    if (inner.name === 'git')
      return {
        readOnly: false,
        reason: `find ${action} git: git run by find is not checked against the repository's hooks, programs and secrets; run git itself`,
        name: 'find',
      }
    names.push(inner.name ?? '?')
    for (const word of inner.paths ?? []) {
      // `{}/k/` or `{}.bak` names a path below or beside a found file: known only at run time.
      if (word.includes(FOUND_FILE)) builtOnFound ||= word !== FOUND_FILE
      else paths.push(word)
    }
    if (printsContent(inner, part.argv as string[], clause)) content = true
    if (!PRINTS_WORDS_ONLY.has(inner.name ?? '')) opens = true
    if (inner.walks || inner.followsLinks || inner.foundLinks) walksFound = true
    if (inner.followsLinks || inner.foundLinks?.intoFolders) followsFound = true
  }
  // find runs its actions left to right: a -name after the first -exec filters nothing before it.
  const firstAction = (split.inner[0]?.[0] ?? 0) - 1
  const tested = split.own.filter((index) => index < firstAction)
  const walk = walksFound
    ? EVERY_NAME
    : content || opens
      ? findWalk(part.argv as string[], tested, split.own)
      : null
  return {
    ...find,
    reason: `find -exec ${names.join(', ')} only reads`,
    paths,
    unknownPaths: find.unknownPaths || builtOnFound,
    ...(walk && content ? { walks: walk } : {}),
    // Even `wc -l {}` or `grep -l x {}` opens a found symlink's target and tells something of it.
    ...(walk && opens && !find.foundLinks ? { foundLinks: { filter: walk, intoFolders: followsFound } } : {}),
  }
}

function splitFindExec(
  argv: readonly string[],
  globs: AnalyzedCommand['globs'],
  offset: number,
): FindExec | { problem: string } | null {
  const own: number[] = []
  const inner: number[][] = []
  for (let index = offset; index < argv.length; index += 1) {
    const word = argv[index] as string
    if (!EXEC_ACTIONS.has(word)) {
      own.push(index)
      continue
    }
    const clause: number[] = []
    let end = -1
    for (let at = index + 1; at < argv.length; at += 1) {
      const next = argv[at] as string
      if (next === ';' || (next === '+' && argv[at - 1] === '{}' && at - 1 > index + 1)) {
        end = at
        break
      }
      clause.push(at)
    }
    if (end < 0) return { problem: `find ${word} without its ; or {} +` }
    if (clause.length === 0) return { problem: `find ${word} without a command` }
    // A glob there may become `;` and end the clause early: the words after it are find's again.
    const glob = clause.find((at) => globs[at] != null)
    if (glob !== undefined)
      return {
        problem: `find ${word} ${argv[glob]}: a glob in the command find runs may become ; and end it early`,
      }
    // `-exec … {} +` passes many files where `{}` stands; the `{}` itself is the last word.
    inner.push(clause)
    index = end
  }
  return inner.length === 0 ? null : { own, inner }
}

/** The part with only these words; `{}` (anywhere in a word, as GNU find replaces it) a found file. */
function subPart(part: AnalyzedCommand, indexes: number[], own: boolean): AnalyzedCommand {
  const argv = part.argv as string[]
  const words = indexes.map((index) =>
    own ? (argv[index] as string) : (argv[index] as string).replaceAll('{}', FOUND_FILE),
  )
  return {
    ...part,
    argv: words,
    wordValues: words,
    globs: indexes.map((index) => part.globs[index] ?? null),
    globArgs: indexes.flatMap((index, at) => (part.globs[index]?.bash ? [at] : [])),
    leadingGlobArgs: [],
    redirects: own ? part.redirects : [],
    envAssignments: own ? part.envAssignments : [],
  }
}

// Readers that print only names, counts, sizes or an exit status of the files they are given.
const NAME_ONLY = new Set([
  'wc',
  'ls',
  'stat',
  'du',
  'file',
  'echo',
  'printf',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'test',
  '[',
])
const MATCH_ONLY_LONG = /^--(?:files-with(?:out)?-matches|count|quiet|silent)$/
const MATCH_ONLY_LETTERS = new Set(['l', 'L', 'c', 'q'])
// Short options that take a value: in a cluster, the rest of the word after one is that value.
const VALUE_LETTERS: Record<string, string> = { grep: 'efmABCdDX', rg: 'efgmABCtTjMrEd' }

/**
 * Whether a word of the inner command sets a names-or-counts-only mode, read as getopt reads a
 * cluster: `-rl` does, `-ecret` does not (it is `-e cret`, a pattern, whose letters must not be
 * taken for `-c`). Only letters before the first value-taking one are options.
 */
function setsMatchOnly(word: string, tool: string): boolean {
  if (MATCH_ONLY_LONG.test(word)) return true
  if (!/^-[^-]/.test(word)) return false
  const takesValue = VALUE_LETTERS[tool] ?? ''
  for (const letter of word.slice(1)) {
    if (MATCH_ONLY_LETTERS.has(letter)) return true
    if (takesValue.includes(letter)) return false
  }
  return false
}

function printsContent(inner: PartVerdict, argv: readonly string[], clause: number[]): boolean {
  const name = inner.name ?? ''
  if (NAME_ONLY.has(name)) return false
  if (name === 'grep' || name === 'egrep' || name === 'fgrep' || name === 'rg') {
    const tool = name === 'rg' ? 'rg' : 'grep'
    // Words after `--`, or after a flag that takes the next word (`-e -l`), are not options.
    const words = clause.map((index) => argv[index] as string)
    const end = words.indexOf('--')
    return !words
      .slice(0, end === -1 ? words.length : end)
      .some((word, at) => setsMatchOnly(word, tool) && !takesNextWord(words[at - 1], tool))
  }
  return true
}

/** A word ending in a value-taking option (`-e`, `-ie`, `--regexp`) takes the next word as its value. */
function takesNextWord(previous: string | undefined, tool: string): boolean {
  if (previous === undefined) return false
  if (
    /^--(?:regexp|file|max-count|after-context|before-context|context|glob|iglob|type|replace)$/.test(
      previous,
    )
  )
    return true
  if (!/^-[^-]/.test(previous)) return false
  // The first value-taking letter takes the rest of the word, or the next word when it is last.
  const letters = previous.slice(1)
  const first = [...letters].findIndex((letter) => (VALUE_LETTERS[tool] ?? '').includes(letter))
  return first === letters.length - 1
}

// find's -name is fnmatch: `*` takes a leading dot.
const NAME_SEMANTICS = globSemantics({
  shell: 'bash',
  options: new Set(['dotglob', 'globasciiranges']),
  characters: 'utf8',
})

/**
 * Which found files the inner command reads: every file below the start folders, or only those
 * that match each `-name`/`-iname` test before the first action, when the whole expression is a
 * plain conjunction (no `-o`, `!`, `-not`, `,` or parentheses anywhere, which could let other
 * files through).
 */
function findWalk(argv: readonly string[], tested: number[], own: number[]): WalkFilter {
  const words = tested.map((index) => argv[index] as string)
  // A branch anywhere, after an action too (`-name f -exec cat {} \; -o -exec cat {} \;`), lets
  // other files reach an action.
  const branches = own.some((index) =>
    ['-o', '-or', '!', '-not', ',', '(', ')'].includes(argv[index] as string),
  )
  const tests: Array<(name: string) => boolean> = []
  if (!branches) {
    words.forEach((word, at) => {
      const pattern = words[at + 1]
      if ((word !== '-name' && word !== '-iname') || pattern === undefined) return
      const semantics =
        word === '-iname' ? { ...NAME_SEMANTICS, cases: ['fold-all' as const] } : NAME_SEMANTICS
      const matcher = /[{}/]/.test(pattern) ? null : compileSegment(pattern, semantics)
      if (matcher) tests.push(matcher)
    })
  }
  return {
    skipsHidden: false,
    skipsFolder: () => false,
    readsFile: (name) => tests.every((test) => test(name)),
    key: 'find',
  }
}
