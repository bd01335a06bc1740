import type { Redirect } from '../verdict'
import type { ParsedArgs } from './flag-types'

// Commands whose words are not files they read.
const NOT_FILES = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'seq',
  'expr',
  'yes',
  'factor',
  'basename',
  'dirname',
  'sleep',
  'which',
  'whereis',
  'type',
  'whoami',
  'groups',
  'nproc',
  'tty',
  'id',
  'uname',
  'uptime',
  'free',
  'locale',
  'getconf',
  'lsb_release',
  'cal',
  'who',
  'w',
  'users',
  'pstree',
  'pgrep',
  'numfmt',
  'tr',
  'date',
  'ps',
  'lsof',
  'netstat',
  'cd',
  'pushd',
  'popd',
  'xargs',
])
// The first operand is a pattern, script or filter unless a flag gave it.
const PROGRAM_FIRST: Record<string, readonly string[]> = {
  grep: ['-e', '--regexp', '-f', '--file'],
  egrep: ['-e', '--regexp', '-f', '--file'],
  fgrep: ['-e', '--regexp', '-f', '--file'],
  rg: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
  sed: ['-e', '--expression'],
  jq: [],
  awk: ['-f'],
  fd: [],
  fdfind: [],
}
// Flags whose value is a file the command reads.
const FILE_FLAGS = new Set([
  '-f',
  '--file',
  '--exclude-from',
  '--files0-from',
  '--ignore-file',
  '-newer',
  '-anewer',
  '-cnewer',
  '-samefile',
  '--contents',
  '--ignore-revs-file',
  '--reference',
  '--random-source',
  '-i',
  '--input',
  '--search-path',
  '--base-directory',
])
// Flags of one command whose value is a file it reads and may print back: `date -f F` prints each
// line it cannot parse, `file -m F` and `ss -F F` quote the lines they reject, `tar -T F` names
// every line missing from the archive, `diff --from-file=F` prints F.
const COMMAND_FILE_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  date: new Set(['-f', '--file', '-r', '--reference']),
  file: new Set(['-m', '--magic-file', '-f', '--files-from']),
  tar: new Set(['-f', '--file', '-T', '--files-from', '-X', '--exclude-from']),
  ss: new Set(['-F', '--filter']),
  journalctl: new Set(['-D', '--directory', '--file']),
  xargs: new Set(['-a', '--arg-file']),
  diff: new Set(['--from-file', '--to-file', '-X', '--exclude-from']),
  du: new Set(['--files0-from', '-X', '--exclude-from']),
  // hexdump: bad format {SECRET…}
  hexdump: new Set(['-f', '--format-file']),
}
// `strings @/etc/shadow` prints "strings: 'root:…': No such file" for every word of the file.
const RESPONSE_FILE_COMMANDS = new Set(['strings'])
// Commands xargs may drive that only print their arguments.
const PRINTS_ARGUMENTS = new Set(['echo', 'printf'])
// Commands that read the current folder when given no path.
const READS_CWD_BY_DEFAULT = new Set(['ls', 'dir', 'vdir', 'du', 'find', 'tree', 'rg', 'fd', 'fdfind'])

/**
 * The words a read-only command reads as files or folders, for the place checks (class 6): its
 * operands, minus a leading pattern or script, the values of flags that name a file, the targets
 * of `<`, and `.` for a command that reads the current folder when given nothing.
 */
export function pathOperands(
  name: string,
  words: readonly string[],
  parsed: ParsedArgs | null,
  redirects: readonly Redirect[],
): string[] {
  const paths: string[] = []
  for (const redirect of redirects) {
    if (redirect.operator.endsWith('<') && !redirect.operator.includes('<<') && redirect.target !== null)
      paths.push(redirect.target)
  }
  const fileFlags = COMMAND_FILE_FLAGS[name]
  const isFileFlag = (flag: string) => FILE_FLAGS.has(flag) || (fileFlags?.has(flag) ?? false)
  if (parsed) {
    for (const flag of parsed.flags) if (isFileFlag(flag.flag) && flag.value !== null) paths.push(flag.value)
  } else paths.push(...attachedFileValues(words, isFileFlag, fileFlags))
  if (NOT_FILES.has(name)) return paths
  const operands = parsed ? [...parsed.positionals] : plainOperands(words)
  // binutils read `@FILE` as more arguments and quote each word they cannot open as a file name.
  if (RESPONSE_FILE_COMMANDS.has(name))
    for (const word of words) if (word.startsWith('@') && word.length > 1) operands.push(word.slice(1))
  const programFlags = PROGRAM_FIRST[name]
  if (programFlags && !parsed?.flags.some((flag) => programFlags.includes(flag.flag))) operands.shift()
  const recursiveGrep =
    name.endsWith('grep') &&
    parsed?.flags.some((flag) => /^-[rR]$|^--(?:dereference-)?recursive$/.test(flag.flag))
  if (operands.length === 0 && (READS_CWD_BY_DEFAULT.has(name) || recursiveGrep)) operands.push('.')
  return [...paths, ...operands]
}

/**
 * Without a flag table, the values written into the flag's word: `--from-file=F`, `-XF`. A value in
 * the next word is read as an operand already.
 */
function attachedFileValues(
  words: readonly string[],
  isFileFlag: (flag: string) => boolean,
  shortFlags: ReadonlySet<string> | undefined,
): string[] {
  const values: string[] = []
  for (const word of words) {
    if (word === '--') break
    const equals = word.indexOf('=')
    if (word.startsWith('--') && equals > 2 && isFileFlag(word.slice(0, equals)))
      values.push(word.slice(equals + 1))
    // Short flags only from this command's own list: a cluster like `ls -fl` is not `-f l`.
    else if (/^-[^-]./.test(word) && shortFlags?.has(word.slice(0, 2))) values.push(word.slice(2))
  }
  return values
}

/**
 * Whether the command reads files inside its folder operands through any symlink it meets there
 * (`grep -R`, `rg -L`, `diff DIR DIR`), so a planted `link -> ~/.ssh` is read with no path to judge.
 */
export function followsLinksInFolders(
  name: string,
  words: readonly string[],
  parsed: ParsedArgs | null,
): boolean {
  const flags = parsed?.flags.map((flag) => flag.flag) ?? []
  if (name.endsWith('grep')) return flags.includes('-R') || flags.includes('--dereference-recursive')
  if (name === 'rg') return flags.includes('-L') || flags.includes('--follow')
  if (name === 'diff') return !words.includes('--no-dereference')
  return false
}

/**
 * Whether the command walks into the folders the symlinks under its folder operands lead to, and
 * lists or measures what is there (`find -L . -name id_rsa`, `du -La`, `ls -RL`, `fd -L`).
 */
export function walksIntoLinkedFolders(name: string, parsed: ParsedArgs | null): boolean {
  const flags = parsed?.flags.map((flag) => flag.flag) ?? []
  const has = (...names: string[]) => names.some((flag) => flags.includes(flag))
  if (name === 'find') return has('-L', '-follow')
  if (name === 'fd' || name === 'fdfind') return has('-L', '--follow')
  if (name === 'du') return has('-L', '--dereference')
  if (name === 'tree') return has('-l')
  if (name === 'ls' || name === 'dir' || name === 'vdir')
    return has('-L', '--dereference') && has('-R', '--recursive')
  return false
}

/** Whether the command xargs runs opens files at all (echo and printf only print words). */
export function xargsOpensFiles(positionals: readonly string[]): boolean {
  return !PRINTS_ARGUMENTS.has(positionals[0] ?? 'echo')
}

/**
 * Whether the command xargs runs reads something only known at run time (issue 21.3): what is in
 * the files its input lines name, or a file an input line names through a flag. xargs passes its
 * input (a pipe, `-a FILE`, a here-string) as words, and a word can be any flag of the command:
 * `--files0-from=/etc/shadow` makes wc print every line of that file. So wc, which prints counts
 * and names only, stays without a question only when the input can be nothing but operands: after
 * a `--` of the command's own words (each `{}` of `-I {}` after it). echo and printf only print
 * their words, whatever flags those become.
 */
export function xargsReadsInputPaths(positionals: readonly string[], replaces: boolean): boolean {
  if (!xargsOpensFiles(positionals)) return false
  const [driven, ...words] = positionals
  const end = words.indexOf('--')
  const inputsAreOperands =
    end >= 0 && (!replaces || words.every((word, index) => !word.includes('{}') || index > end))
  return !(driven === 'wc' && inputsAreOperands)
}

// git flags whose value is a file git reads and prints from: `git blame --contents F` shows F's
// lines, `git config -f F --get k` prints a value of any INI file (~/.pypirc).
const GIT_FILE_FLAGS = new Set(['--contents', '--ignore-revs-file', '-f', '--file', '-X', '--exclude-from'])

/** The files a read-only git command reads besides the repository: flag values, `diff --no-index` operands. */
export function gitReadPaths(git: { subcommand?: string; parsed?: ParsedArgs }): string[] {
  const parsed = git.parsed
  if (!parsed) return []
  const paths = parsed.flags.flatMap((flag) =>
    GIT_FILE_FLAGS.has(flag.flag) && flag.value !== null ? [flag.value] : [],
  )
  // `git diff --no-index A B` compares any two files on disk, and git diff does so without the
  // flag when a path is outside the work tree (`git diff ~/.ssh/id_rsa /dev/null`). Revisions
  // (HEAD~1, main..x) read as names inside the workspace, which ask nothing.
  if (git.subcommand === 'diff') paths.push(...parsed.positionals)
  return paths
}

/** Without a flag table: every word that is not a flag, and every word after `--`. */
function plainOperands(words: readonly string[]): string[] {
  const operands: string[] = []
  let ended = false
  for (const word of words) {
    if (!ended && word === '--') ended = true
    else if (ended || !word.startsWith('-') || word === '-') operands.push(word)
  }
  return operands
}
