/**
 * What a non-zero exit code means (seed 003, interpretBashReturnCode), judged by the last command
 * of the line: `grep` finding nothing or `diff` finding a difference is an answer, not a failure.
 */

export interface ExitSemantics {
  isError: boolean
  /** The answer in words for a non-error non-zero exit ("No matches found"); null otherwise. */
  message: string | null
}

const NO_MATCHES = 'No matches found'
const FILES_DIFFER = 'Files differ'

/** Exit code 1 that is an answer, by command name. */
const EXIT_ONE_MEANS: Readonly<Record<string, string>> = {
  grep: NO_MATCHES,
  egrep: NO_MATCHES,
  fgrep: NO_MATCHES,
  rg: NO_MATCHES,
  diff: FILES_DIFFER,
  find: 'Some directories were inaccessible',
  test: 'Condition is false',
  '[': 'Condition is false',
}

const GIT_EXIT_ONE_MEANS: Readonly<Record<string, string>> = { grep: NO_MATCHES, diff: FILES_DIFFER }
/** git global options that take a separate value, skipped to find the subcommand. */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
])

export function interpretExitCode(
  lastArgv: readonly string[] | null,
  exitCode: number | null,
): ExitSemantics {
  if (exitCode === 0) return { isError: false, message: null }
  if (exitCode !== 1 || lastArgv === null || lastArgv.length === 0) return { isError: true, message: null }
  const name = baseName(lastArgv[0] as string)
  const meaning = name === 'git' ? GIT_EXIT_ONE_MEANS[gitSubcommand(lastArgv) ?? ''] : EXIT_ONE_MEANS[name]
  return meaning === undefined ? { isError: true, message: null } : { isError: false, message: meaning }
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1)
}

function gitSubcommand(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] as string
    if (!word.startsWith('-')) return word
    if (GIT_VALUE_OPTIONS.has(word)) i += 1
  }
  return undefined
}
