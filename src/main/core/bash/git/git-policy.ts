import { parseFlags } from '../readonly/flag-parser'
import type { ParsedArgs, PolicyContext } from '../readonly/flag-types'
import { readGitGlobalOptions } from './git-global-options'
import { type GitReads, gitReadsOf } from './git-prints'
import { findGitSubcommand } from './git-subcommands'

export interface GitArgvVerdict {
  readOnly: boolean
  reason: string
  /** argv index (from `git`) where the subcommand's own arguments start; for the glob rule. */
  argsStart: number
  /**
   * argv index of the `--` after which this subcommand reads only pathspecs, so an unquoted glob
   * there is just more paths; null when there is none or the subcommand is not one of those.
   */
  pathspecsAfter: number | null
  /** The subcommand as matched (`log`, `stash list`), on a read-only verdict. */
  subcommand?: string
  /** `-C DIR` words, in order, on a read-only verdict. */
  directories?: string[]
  /** The subcommand's flags and operands, on a read-only verdict, for the place checks. */
  parsed?: ParsedArgs
  /** What it prints from the repository, on a read-only verdict, for the repository checks. */
  reads?: GitReads
}

// Subcommands whose words after `--` are pathspecs and nothing else.
const PATHSPEC_SUBCOMMANDS = new Set([
  'log',
  'whatchanged',
  'shortlog',
  'show',
  'diff',
  'status',
  'ls-files',
  'grep',
  'blame',
  'ls-tree',
])

/** Decide whether one `git …` argv only reads: global options, subcommand by longest prefix, flags, callbacks. */
export function evaluateGitArgv(argv: string[], context: PolicyContext): GitArgvVerdict {
  const globals = readGitGlobalOptions(argv.slice(1))
  if (!globals.ok)
    return { readOnly: false, reason: globals.reason, argsStart: argv.length, pathspecsAfter: null }
  const words = globals.rest
  const skipped = argv.length - words.length
  if (words.length === 0)
    return {
      readOnly: false,
      reason: 'git without a subcommand',
      argsStart: argv.length,
      pathspecsAfter: null,
    }
  const subcommand = findGitSubcommand(words)
  if (!subcommand) {
    return {
      readOnly: false,
      reason: `git ${words[0]} is not a read-only git subcommand`,
      argsStart: argv.length,
      pathspecsAfter: null,
    }
  }
  const name = `git ${subcommand.name}`
  const args = words.slice(subcommand.length)
  const argsStart = skipped + subcommand.length
  const flags = parseFlags(name, args, subcommand.policy)
  if (!flags.ok) return { readOnly: false, reason: flags.reason, argsStart, pathspecsAfter: null }
  const problem = subcommand.policy.check?.(flags.parsed, context)
  if (problem) return { readOnly: false, reason: problem, argsStart, pathspecsAfter: null }
  const end = flags.parsed.endOfOptions
  const pathspecsAfter = PATHSPEC_SUBCOMMANDS.has(subcommand.name) && end !== null ? argsStart + end : null
  return {
    readOnly: true,
    reason: `${name} only reads the repository`,
    argsStart,
    pathspecsAfter,
    subcommand: subcommand.name,
    directories: globals.directories,
    parsed: flags.parsed,
    reads: gitReadsOf(subcommand.name, flags.parsed, end === null ? [] : args.slice(end + 1)),
  }
}
