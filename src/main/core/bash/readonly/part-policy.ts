import type { AnalyzedCommand } from '../analysis/command-analysis'
import { evaluateGitArgv } from '../git/git-policy'
import { ANY_ARGS_COMMANDS } from './any-args-commands'
import { findUncPath, isPathQualified, stripTransparentWrappers } from './command-name'
import { evaluateDirectArgv } from './direct-argv'
import { describeDynamicPart } from './dynamic-reason'
import { refuseEnvAssignments } from './env-allowlist'
import { parseFlags } from './flag-parser'
import type { CommandPolicy, PolicyContext } from './flag-types'
import { COMMAND_POLICIES } from './policy-tables'
import { findPrefixPolicy } from './prefix-commands'
import { refuseRedirects } from './redirect-policy'
import { REFUSED_COMMANDS } from './refused-commands'
import { findKnownWriteOption } from './write-options'

// Every git subcommand accepts --output, so a glob that expands to `--output=…` would write.
const GIT_GLOBS: CommandPolicy = { flags: {}, flagsCanWrite: true }

export interface PartVerdict {
  readOnly: boolean
  reason: string
  /** The command name after wrappers, for whole-line rules (git with cd); null when unknown. */
  name: string | null
}

/**
 * The read-only policy for one simple command, as a chain of short circuits: each layer either
 * decides with a reason or passes to the next; a command no layer knows is not read-only.
 */
export function evaluateCommandPart(part: AnalyzedCommand, platform: NodeJS.Platform): PartVerdict {
  const refuse = (reason: string, name: string | null = null): PartVerdict => ({
    readOnly: false,
    reason,
    name,
  })
  const dynamic = part.dynamicParts[0]
  if (dynamic !== undefined || part.argv === null) return refuse(describeDynamicPart(dynamic ?? part.text))
  const envProblem = refuseEnvAssignments(part.envAssignments)
  if (envProblem) return refuse(envProblem)
  const redirectProblem = refuseRedirects(part.redirects)
  if (redirectProblem) return refuse(redirectProblem)
  const argv = stripTransparentWrappers(part.argv)
  const name = argv[0]
  if (name === undefined) return refuse('there is no command, only assignments or redirects')
  const unc = findUncPath(argv, platform)
  if (unc)
    return refuse(`${unc} is a UNC path: Windows connects to that host and offers your credentials`, name)
  if (isPathQualified(name, platform)) {
    return refuse(`${name} runs the file at that path, not a known command`, name)
  }
  const context: PolicyContext = { command: part.text, platform }
  const offset = part.argv.length - argv.length
  const writeOption = findKnownWriteOption(argv)
  if (writeOption) return refuse(writeOption, name)
  const direct = evaluateDirectArgv(argv)
  if (direct) return { ...direct, name }
  if (name === 'git') {
    const git = evaluateGitArgv(argv, context)
    if (!git.readOnly) return refuse(git.reason, name)
    const globProblem = findGlobProblem(part, GIT_GLOBS, 'git', offset, git.argsStart)
    return globProblem ? refuse(globProblem, name) : { readOnly: true, reason: git.reason, name }
  }
  const prefix = findPrefixPolicy(argv)
  const table = prefix
    ? { label: prefix.prefix, policy: prefix.policy, argsFrom: prefix.words }
    : tableFor(name)
  if (table) {
    const globProblem = findGlobProblem(part, table.policy, table.label, offset, table.argsFrom)
    if (globProblem) return refuse(globProblem, name)
    return evaluateWithTable(table.label, argv.slice(table.argsFrom), table.policy, context, name)
  }
  if (ANY_ARGS_COMMANDS.has(name))
    return { readOnly: true, reason: `${name} only reads, whatever its arguments`, name }
  const known = Object.hasOwn(REFUSED_COMMANDS, name) ? REFUSED_COMMANDS[name] : undefined
  return refuse(known ?? `${name} is not a known read-only command`, name)
}

function tableFor(name: string): { label: string; policy: CommandPolicy; argsFrom: number } | null {
  const policy = COMMAND_POLICIES.get(name)
  return policy ? { label: name, policy, argsFrom: 1 } : null
}

/**
 * Unquoted globs: a leading one could expand to a file named like a flag (`-o…`) where some flag
 * writes or runs a program; any one could become several operands where a second operand is written.
 * `offset` is how many wrapper words were stripped, `argsFrom` where the arguments start.
 */
function findGlobProblem(
  part: AnalyzedCommand,
  policy: CommandPolicy,
  label: string,
  offset: number,
  argsFrom: number,
): string | null {
  const first = (indexes: number[]) => indexes.find((index) => index - offset >= argsFrom)
  const leading = policy.flagsCanWrite ? first(part.leadingGlobArgs) : undefined
  if (leading !== undefined) return leadingGlobReason(label, part.argv?.[leading] ?? '')
  const any = policy.operandCountMatters ? first(part.globArgs) : undefined
  if (any !== undefined) {
    return `${label} ${part.argv?.[any]}: a glob could expand to several operands, and a second one is written to`
  }
  return null
}

function evaluateWithTable(
  label: string,
  args: string[],
  policy: CommandPolicy,
  context: PolicyContext,
  name: string,
): PartVerdict {
  const flags = parseFlags(label, args, policy)
  if (!flags.ok) return { readOnly: false, reason: flags.reason, name }
  const problem = policy.check?.(flags.parsed, context)
  if (problem) return { readOnly: false, reason: problem, name }
  return { readOnly: true, reason: `${label} with these flags only reads`, name }
}

function leadingGlobReason(name: string, glob: string): string {
  return `${name} ${glob}: an unquoted glob could expand to a file named like a flag, and ${name} has flags that write or run programs`
}
