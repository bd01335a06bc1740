import type { CommandPolicy } from './flag-types'
import { COMMAND_POLICIES } from './policy-tables'
import { platformPolicy } from './tables-platform'

/**
 * Whether no flag of `name` names a file it reads, writes a file or runs a program, no word is
 * read as a response file (`@FILE`) or a `+` option, and no operand changes what it does (`uniq IN
 * OUT`, `date MMDDhhmm`, `top` without -b). For such a command a word that turns out to be any flag
 * at all (a glob's match, an xargs input line) can only change how it prints what it was given.
 * False for a command without a table: nothing is known about its flags.
 */
export function commandHasNoFileOrWriteFlags(
  name: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const policy = platformPolicy(name, platform) ?? COMMAND_POLICIES.get(name)
  return policy !== undefined && policyHasNoFileOrWriteFlags(policy)
}

/** Whether the command expands `@FILE` words into more arguments (binutils), wherever they are. */
export function commandReadsResponseFiles(
  name: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const policy = platformPolicy(name, platform) ?? COMMAND_POLICIES.get(name)
  return policy?.responseFiles === true
}

const FACTS = new WeakMap<CommandPolicy, boolean>()

function policyHasNoFileOrWriteFlags(policy: CommandPolicy): boolean {
  const known = FACTS.get(policy)
  if (known !== undefined) return known
  const answer =
    !policy.flagsCanWrite &&
    !policy.check &&
    !policy.operandCountMatters &&
    !policy.responseFiles &&
    !policy.plusOptions &&
    !policy.operandFiles &&
    !policy.runTimeFilesWith &&
    Object.keys(policy.refusedFlags ?? {}).length === 0 &&
    !Object.values(policy.flags).some((kind) => kind === 'file' || kind === 'fileList')
  FACTS.set(policy, answer)
  return answer
}
