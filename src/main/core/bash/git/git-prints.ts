import path from 'node:path'
import type { HistorySecrets } from '../git-safety/history-secrets'
import type { ObjectNamesJudged } from '../git-safety/object-names'
import type { ParsedArgs } from '../readonly/flag-types'
import { statOncePerCall } from '../git-safety/per-call-reads'
import { redactedConfigName } from '../../secrets/git-secret-keys'

/** What a read-only git command prints from the repository, for the checks that know the repository. */
export interface GitReads {
  /** Files read through objects: `show REV:path`, `cat-file -p :path`, `config --blob=REV:path`. */
  objectPaths: string[]
  /**
   * It may print the contents of tracked files it does not name (`log -p`, `diff --cached`,
   * `grep --cached x`, `show HEAD`); null when it does not, else the pathspecs that limit it
   * (empty: the whole tree).
   */
  trackedContents: string[] | null
  /** Config names (`*` for any subsection) whose values it prints: `remote -v`, `config --get K`. */
  configValues: string[]
  /**
   * Config names it prints, or prints through (`*` alone for every name): `config --name-only -l`
   * prints them all, and `remote -v` prints URLs rewritten by `url.<base>.insteadOf`, whose base is
   * part of the name and may carry a password.
   */
  configNames: string[]
  /**
   * The contents it prints may come from any commit (`log -p`, `show REV`, `grep x REV`,
   * `diff A B`, `cat-file -p ID`), not only from today's index and work tree.
   */
  readsHistory: boolean
  /**
   * Objects it prints that operands name by id (`cat-file -p 16f45a0`, `show --stat <blob>`,
   * `diff <blob> <blob>`), lowercased, without `^`/`~` suffixes: their file names are judged.
   */
  objectIds: string[]
  /** Why it may print objects no operand names (`cat-file --batch-all-objects --batch`), else null. */
  printsAnyObject: string | null
  /** `git log -- ONE-PATH`: with `log.follow` in a config, it prints that file's earlier names too. */
  followsOnePath?: boolean
}

// Subcommands whose printed contents come from commits, whatever their operands.
const HISTORY_PRINTERS = new Set([
  'log',
  'whatchanged',
  'reflog',
  'show',
  'stash list',
  'stash show',
  'diff-tree',
  'cat-file',
])

const REMOTE_URLS = ['remote.*.url', 'remote.*.pushurl']
// Flags after which diff-producing commands print no file contents.
const NO_PATCH = new Set([
  '-s',
  '--no-patch',
  '--stat',
  '--numstat',
  '--shortstat',
  '--name-only',
  '--name-status',
  '--raw',
  '--summary',
  '--dirstat',
  '--compact-summary',
  '--quiet',
])
const PATCH = new Set([
  '-p',
  '--patch',
  '-u',
  '-U',
  '--unified',
  '--patch-with-stat',
  '--patch-with-raw',
  '--cc',
  '-c',
  '-m',
  '-W',
  '--function-context',
  '--word-diff',
  '--word-diff-regex',
  '--color-words',
  '--binary',
  '--remerge-diff',
  '--dd',
  // Each offending line, whole (a CRLF file makes every line one).
  '--check',
  // Pickaxe: which commits hold a guessed string tells what a file held, one guess at a time.
  '-S',
  '-G',
  '--pickaxe-regex',
])

// The pathspec limits which commits are shown, not what they print (`--full-diff`), or git follows
// the one file to its earlier names (`--follow`): the whole tree may be printed.
const PATHSPEC_WIDENERS = ['--full-diff', '--follow']

/** `--diff-merges=on|1|first-parent|separate|m|c|cc|dense-combined|remerge` prints merges' patches (git 2.39). */
function diffMergesPrints(parsed: ParsedArgs): boolean {
  return parsed.flags.some(
    (flag) => flag.flag === '--diff-merges' && flag.value !== 'off' && flag.value !== 'none',
  )
}

/**
 * The reads of one parsed read-only git subcommand; `pathspecs` are its words after `--`. Without
 * `--`, operands may be revisions (`git show HEAD` prints every file of the commit), so only `--`
 * limits what it prints; a content printer's operands are judged as paths as well.
 */
export function gitReadsOf(subcommand: string, parsed: ParsedArgs, pathspecs: readonly string[]): GitReads {
  const flags = new Set(parsed.flags.map((flag) => flag.flag))
  const values = parsed.flags.flatMap((flag) => (flag.value === null ? [] : [flag.value]))
  const objectPaths = [...parsed.positionals, ...values].flatMap(objectPath)
  const patch = [...flags].some((flag) => PATCH.has(flag)) || diffMergesPrints(parsed)
  const noPatch = [...flags].some((flag) => NO_PATCH.has(flag))
  let printsContents = false
  if (subcommand === 'show' || subcommand === 'diff') printsContents = !noPatch || patch
  else if (['log', 'whatchanged', 'reflog', 'stash list', 'stash show', 'diff-tree'].includes(subcommand))
    printsContents = patch
  else if (subcommand === 'grep') printsContents = true
  // blame prints every line of the one file it is given (`git blame [REV] [--] FILE`).
  else if (subcommand === 'blame') printsContents = true
  // A blob named by its id (`cat-file -p 3b18e51`, `cat-file blob 3b18e51`, `--batch` from stdin)
  // may be any tracked file.
  else if (subcommand === 'cat-file') printsContents = catFilePrintsContents(parsed, flags)
  if (printsContents) objectPaths.push(...parsed.positionals.filter((word) => !word.includes(':')))
  const readsHistory = printsContents && readsCommits(subcommand, parsed, flags)
  // `git show` prints a blob it is given whatever its diff flags say (`show --stat <blob>` too).
  const printsNamedObjects = readsHistory || subcommand === 'show'
  const blamed = subcommand === 'blame' ? [...pathspecs, ...parsed.positionals].slice(-1) : null
  return {
    objectPaths,
    trackedContents: printsContents ? (blamed ?? (widensPathspec(flags) ? [] : [...pathspecs])) : null,
    followsOnePath: printsContents && mayFollowByConfig(subcommand, flags, pathspecs),
    configValues: configValuesOf(subcommand, parsed, flags),
    configNames: configNamesOf(subcommand, flags),
    readsHistory,
    objectIds: printsNamedObjects ? parsed.positionals.flatMap(objectIdsIn) : [],
    printsAnyObject: subcommand === 'cat-file' && printsContents ? catFileUnnamedObjects(flags) : null,
  }
}

function widensPathspec(flags: ReadonlySet<string>): boolean {
  return PATHSPEC_WIDENERS.some((flag) => flags.has(flag))
}

/**
 * `log.follow`, which any config may set, makes `git log -- ONE-PATH` follow that file to its
 * earlier names, as `--follow` does; git follows files only, so a folder's pathspec stays a limit.
 */
function mayFollowByConfig(
  subcommand: string,
  flags: ReadonlySet<string>,
  pathspecs: readonly string[],
): boolean {
  const logs = subcommand === 'log' || subcommand === 'whatchanged'
  return logs && pathspecs.length === 1 && !flags.has('--no-follow') && !flags.has('--follow')
}

const CAT_FILE_CONTENT_BATCHES = ['--batch', '--batch-command']

/** `-p`, `<type> <object>`, `--textconv`/`--filters`, and the batches that print contents. */
function catFilePrintsContents(parsed: ParsedArgs, flags: ReadonlySet<string>): boolean {
  if (['-p', '--textconv', '--filters', ...CAT_FILE_CONTENT_BATCHES].some((flag) => flags.has(flag)))
    return true
  const metadataOnly = ['-t', '-s', '-e', '--batch-check'].some((flag) => flags.has(flag))
  return !metadataOnly && parsed.positionals.length >= 2
}

/** Object names read from stdin, or every object in the store: unreachable ones included. */
function catFileUnnamedObjects(flags: ReadonlySet<string>): string | null {
  if (!CAT_FILE_CONTENT_BATCHES.some((flag) => flags.has(flag))) return null
  return flags.has('--batch-all-objects')
    ? 'prints every object in the repository, ones no branch or reflog reaches included, whose file names are unknown'
    : 'prints the objects its input names, which may be ones no branch or reflog reaches, whose file names are unknown'
}

// git takes an id abbreviated to 4 hex digits or more (MINIMUM_ABBREV); `^`, `~`, `^{type}` and
// `@{…}` after it still start from that object.
const OBJECT_ID = /^\^?([0-9a-f]{4,64})(?:[~^@].*)?$/i

/** `16f45a0` → 16f45a0; `a1b2c3d..HEAD` → a1b2c3d; `HEAD:x`, `main`, `v1.2` → none. */
function objectIdsIn(word: string): string[] {
  if (word.includes(':')) return []
  return word.split(/\.{2,3}/).flatMap((side) => OBJECT_ID.exec(side)?.[1]?.toLowerCase() ?? [])
}

/** `git diff` compares the work tree with the index, `git grep x` searches the work tree; with a
 * revision operand (or diff's --cached, which compares with HEAD) they print from commits. */
function readsCommits(subcommand: string, parsed: ParsedArgs, flags: ReadonlySet<string>): boolean {
  if (HISTORY_PRINTERS.has(subcommand)) return true
  if (subcommand === 'diff')
    return (
      parsed.positionals.length > 0 ||
      ['--cached', '--staged', '--merge-base'].some((flag) => flags.has(flag))
    )
  if (subcommand === 'grep') {
    const patternGiven = ['-e', '-f', '--and', '--or', '--not'].some((flag) => flags.has(flag))
    return parsed.positionals.length > (patternGiven ? 0 : 1)
  }
  return true
}

function printsRemoteUrls(subcommand: string, flags: ReadonlySet<string>): boolean {
  if (subcommand === 'remote') return flags.has('-v') || flags.has('--verbose')
  return ['remote get-url', 'remote show', 'ls-remote'].includes(subcommand)
}

function configValuesOf(subcommand: string, parsed: ParsedArgs, flags: ReadonlySet<string>): string[] {
  if (printsRemoteUrls(subcommand, flags)) return REMOTE_URLS
  if (subcommand === 'config') return parsed.positionals.slice(0, 1).map((key) => key.toLowerCase())
  return []
}

const URL_REWRITES = ['url.*.insteadof', 'url.*.pushinsteadof']

function configNamesOf(subcommand: string, flags: ReadonlySet<string>): string[] {
  if (subcommand === 'config') return flags.has('--name-only') ? ['*'] : []
  return printsRemoteUrls(subcommand, flags) ? URL_REWRITES : []
}

/** `HEAD:src/.env` → `src/.env`; `:0:app.env` → `app.env`; `:.env` → `.env`; a plain word → none. */
function objectPath(word: string): string[] {
  const colon = word.indexOf(':')
  if (colon === -1 || word.includes('://')) return []
  const rest = word.slice(colon + 1)
  const staged = colon === 0 ? /^[0-3]:(.*)$/.exec(rest) : null
  const file = staged ? (staged[1] as string) : rest
  return file === '' ? [] : [file]
}

/**
 * Judge the reads against what the repository holds: a value with a password is refused (it would
 * be printed, and no question names it), tracked secret files the command may print are returned
 * as paths to judge, so the place checks ask about them.
 */
export function judgeGitReads(
  reads: GitReads,
  repository: {
    workTree: string
    credentialKeys: readonly string[]
    credentialNames: () => { names: readonly string[] } | { unknown: string }
    secretTrackedPaths: readonly string[]
    historySecrets: () => HistorySecrets
    objectIds: (ids: readonly string[], label: string) => ObjectNamesJudged
    logFollows?: () => boolean
  },
  cwd: string,
  label: string,
): { problem: string | null; paths: string[] } {
  const credential = repository.credentialKeys.find((key) =>
    reads.configValues.some((pattern) => configNameMatches(pattern, key)),
  )
  if (credential) return { problem: `${label} prints ${credential}, whose value holds a password`, paths: [] }
  if (reads.configNames.length > 0) {
    const held = repository.credentialNames()
    if ('unknown' in held)
      return { problem: `${label} prints config names or rewritten URLs: ${held.unknown}`, paths: [] }
    // The name itself is the secret, so the reason shows only its section and key.
    const name = held.names.find((key) =>
      reads.configNames.some((pattern) => configNameMatches(pattern, key)),
    )
    if (name)
      return {
        problem: `${label} prints a config name with a password in it (${redactedConfigName(name)}), or a URL it rewrites`,
        paths: [],
      }
  }
  if (reads.printsAnyObject) return { problem: `${label} ${reads.printsAnyObject}`, paths: [] }
  const named =
    reads.objectIds.length > 0 ? repository.objectIds(reads.objectIds, label) : { secretPaths: [] }
  if ('problem' in named) return { problem: named.problem, paths: [] }
  const namedPaths = named.secretPaths.map((tracked) => path.join(repository.workTree, tracked))
  // A folder's pathspec stays a limit whatever log.follow says: git follows one file only.
  const follows =
    reads.followsOnePath === true &&
    (repository.logFollows?.() ?? true) &&
    statOncePerCall(path.resolve(cwd, reads.trackedContents?.[0] ?? '.'))?.isDirectory() !== true
  const limits = follows ? [] : reads.trackedContents
  if (limits === null) return { problem: null, paths: namedPaths }
  // Pathspecs are relative to the folder git runs in, tracked paths to the work tree.
  const specs = limits.map((pathspec) =>
    /^:|[*?[\\]/.test(pathspec) ? pathspec : path.relative(repository.workTree, path.resolve(cwd, pathspec)),
  )
  let secrets = repository.secretTrackedPaths
  if (reads.readsHistory) {
    const history = repository.historySecrets()
    if ('unknown' in history)
      return { problem: `${label} may print files from the history: ${history.unknown}`, paths: [] }
    secrets = [...new Set([...secrets, ...history.paths])]
  }
  const printed = secrets.filter(
    (tracked) => specs.length === 0 || specs.some((pathspec) => pathspecCovers(pathspec, tracked)),
  )
  const paths = printed.map((tracked) => path.join(repository.workTree, tracked))
  return { problem: null, paths: [...new Set([...paths, ...namedPaths])] }
}

function configNameMatches(pattern: string, key: string): boolean {
  if (pattern === '*') return true
  if (!pattern.includes('*')) return pattern === key
  const [section, , name] = pattern.split('.')
  return key.startsWith(`${section}.`) && key.endsWith(`.${name}`)
}

/** A literal pathspec covers the path it names and what is below it; any magic or glob covers all. */
function pathspecCovers(pathspec: string, tracked: string): boolean {
  if (/^:|[*?[\\]/.test(pathspec)) return true
  if (pathspec.startsWith('..')) return false
  const spec = pathspec.replace(/\/+$/, '')
  return spec === '' || tracked === spec || tracked.startsWith(`${spec}/`)
}
