import { findGitSubcommand } from '../git/git-subcommands'
import { stripTransparentWrappers } from './command-name'
import { COMMAND_POLICIES } from './policy-tables'
import { findPrefixPolicy } from './prefix-commands'

// git global options that take the next word as their value.
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'])

/**
 * Whether this command has a flag table, so that when it is not read-only, the reason is one of
 * its options or operands (`sort -o out`, `git status --output=x`, `uniq IN OUT`). A prefix rule
 * such as `sort:*` would then also allow that write anywhere, so only an exact rule may be offered.
 */
export function hasReadOnlyTable(given: readonly string[]): boolean {
  const argv = stripTransparentWrappers([...given])
  const name = argv[0]
  if (name === undefined) return false
  if (name === 'git') return findGitSubcommand(afterGitGlobalOptions(argv)) !== null
  return COMMAND_POLICIES.has(name) || findPrefixPolicy(argv) !== null
}

function afterGitGlobalOptions(argv: readonly string[]): string[] {
  let index = 1
  while (index < argv.length && (argv[index] as string).startsWith('-')) {
    index += GIT_VALUE_OPTIONS.has(argv[index] as string) ? 2 : 1
  }
  return argv.slice(index)
}
