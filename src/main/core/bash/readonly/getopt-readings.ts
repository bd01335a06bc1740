import { type FlagCheck, parseFlags } from './flag-parser'
import type { CommandPolicy, ParsedArgs, PolicyContext } from './flag-types'

export type Readings =
  | {
      ok: true
      /** GNU getopt's reading: options anywhere before `--`. */
      parsed: ParsedArgs
      /** The reading where options end at the first operand, when it differs; null otherwise. */
      posix: ParsedArgs | null
    }
  | { ok: false; reason: string }

/**
 * GNU getopt permutes (`uniq in -c` counts), but with POSIXLY_CORRECT in the environment, and with
 * BSD getopt on macOS, options end at the first operand: `-c` becomes uniq's OUTPUT file, and in
 * `grep x f -e ~/.ssh/id_rsa` the key becomes a file grep prints. The environment the command
 * inherits is not ours to see, so a table must pass both readings, and the files of both are judged.
 */
export function readBothWays(
  label: string,
  args: string[],
  policy: CommandPolicy,
  context: PolicyContext,
): Readings {
  const parsed = parseFlags(label, args, policy)
  if (!parsed.ok) return parsed
  const problem = policy.check?.(parsed.parsed, context)
  if (problem) return { ok: false, reason: problem }
  const posix = differentPosixReading(label, args, policy, parsed)
  if (posix === null) return { ok: true, parsed: parsed.parsed, posix: null }
  const posixProblem = posix.ok ? policy.check?.(posix.parsed, context) : posix.reason
  if (posixProblem)
    return {
      ok: false,
      reason: `${posixProblem} when options end at the first operand (POSIXLY_CORRECT set, or BSD getopt)`,
    }
  return { ok: true, parsed: parsed.parsed, posix: posix.ok ? posix.parsed : null }
}

function differentPosixReading(
  label: string,
  args: string[],
  policy: CommandPolicy,
  permuted: Extract<FlagCheck, { ok: true }>,
): FlagCheck | null {
  if (policy.optionsEndAtFirstPositional || policy.singleDashLong || policy.oldStyleFirstArg) return null
  const firstOperand = permuted.parsed.positionals[0]
  if (firstOperand === undefined) return null
  // Only a dashed word after the first operand is read differently.
  const from = args.indexOf(firstOperand)
  const end = permuted.parsed.endOfOptions ?? args.length
  if (!args.slice(from + 1, end).some((word) => word.startsWith('-') && word !== '-')) return null
  return parseFlags(label, args, posixPolicy(policy))
}

// The same table read with options ending at the first operand, made once per table: spreading
// a table and adding a key on every call made a new hidden class each time (Node 20).
const POSIX_POLICIES = new WeakMap<CommandPolicy, CommandPolicy>()

function posixPolicy(policy: CommandPolicy): CommandPolicy {
  let posix = POSIX_POLICIES.get(policy)
  if (!posix) {
    posix = { ...policy, optionsEndAtFirstPositional: true }
    POSIX_POLICIES.set(policy, posix)
  }
  return posix
}
