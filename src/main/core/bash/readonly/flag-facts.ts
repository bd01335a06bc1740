import { ANY_ARGS_COMMANDS } from './any-args-commands'
import type { CommandPolicy } from './flag-types'
import { COMMAND_POLICIES } from './policy-tables'
import { platformPolicy } from './tables-platform'

// Any-arguments commands with a flag that names a file they read (du --files0-from, diff
// --from-file, hexdump -f, pgrep -F, md5sum -c), a response file (strings @FILE), a run-time
// evaluation (test -v) or a grammar of their own (lsof +D, whereis -B): not "no file flags".
const ANY_ARGS_WITH_FILE_FLAGS: ReadonlySet<string> = new Set([
  'du',
  'diff',
  'hexdump',
  'strings',
  'pgrep',
  'cksum',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'test',
  '[',
  'lsof',
  'whereis',
  'who',
  'users',
])

/**
 * Whether no flag of `name` names a file it reads, writes a file or runs a program, no word is
 * read as a response file (`@FILE`), and no operand changes what it does (`uniq IN OUT`, `date
 * MMDDhhmm`). For such a command a word that turns out to be any flag at all (a glob's match, an
 * xargs input line) can only change how it prints what it was given. False for a command without a
 * table: nothing is known about its flags.
 */
export function commandHasNoFileOrWriteFlags(
  name: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const policy = platformPolicy(name, platform) ?? COMMAND_POLICIES.get(name)
  if (policy) return policyHasNoFileOrWriteFlags(policy)
  return ANY_ARGS_COMMANDS.has(name) && !ANY_ARGS_WITH_FILE_FLAGS.has(name)
}

function policyHasNoFileOrWriteFlags(policy: CommandPolicy): boolean {
  if (policy.flagsCanWrite || policy.check || policy.operandCountMatters) return false
  if (Object.keys(policy.refusedFlags ?? {}).length > 0) return false
  return !Object.values(policy.flags).some((kind) => kind === 'file' || kind === 'fileList')
}
