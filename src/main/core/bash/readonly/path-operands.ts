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
  if (NOT_FILES.has(name)) return paths
  const operands = parsed ? [...parsed.positionals] : plainOperands(words)
  const programFlags = PROGRAM_FIRST[name]
  if (programFlags && !parsed?.flags.some((flag) => programFlags.includes(flag.flag))) operands.shift()
  for (const flag of parsed?.flags ?? []) {
    if (FILE_FLAGS.has(flag.flag) && flag.value !== null) paths.push(flag.value)
  }
  const recursiveGrep =
    name.endsWith('grep') &&
    parsed?.flags.some((flag) => /^-[rR]$|^--(?:dereference-)?recursive$/.test(flag.flag))
  if (operands.length === 0 && (READS_CWD_BY_DEFAULT.has(name) || recursiveGrep)) operands.push('.')
  return [...paths, ...operands]
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
