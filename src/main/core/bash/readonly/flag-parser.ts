import type { CommandPolicy, FlagValueKind, ParsedArgs } from './flag-types'

export type FlagCheck = { ok: true; parsed: ParsedArgs } | { ok: false; reason: string }

const NUMBER = /^-?\d+$/
// One character, or one written as an escape the tool decodes: `\n`, `\t`, `\x1f`, `\0`.
const ONE_CHARACTER = /^(?:[^\\]|\\[\\abfnrtv0]|\\x[0-9a-fA-F]{1,2}|\\[0-7]{1,3})$/u

/**
 * Check every flag of `args` (argv without the command name) against the command's table, the way
 * getopt reads them: `--flag=value`, `--flag value`, `-n5`, `-n 5`, clusters like `-la` (a value
 * flag inside a cluster takes the rest of the word), and nothing after `--`. Unknown flags are refused.
 */
export function parseFlags(name: string, given: string[], policy: CommandPolicy): FlagCheck {
  const expanded = policy.oldStyleFirstArg ? expandOldStyleCluster(name, given, policy) : given
  if (typeof expanded === 'string') return { ok: false, reason: expanded }
  const args = expanded
  const parsed: ParsedArgs = { flags: [], positionals: [], endOfOptions: null }
  let index = 0
  const fail = (reason: string): FlagCheck => ({ ok: false, reason })
  while (index < args.length) {
    const arg = args[index] as string
    index += 1
    if (arg === '--') {
      parsed.endOfOptions = index - 1
      parsed.positionals.push(...args.slice(index))
      break
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg)
      if (policy.optionsEndAtFirstPositional) {
        parsed.positionals.push(...args.slice(index))
        break
      }
      continue
    }
    if (policy.dashCount && NUMBER.test(arg)) {
      parsed.flags.push({ flag: '-n', value: arg.slice(1) })
      continue
    }
    const isLong =
      policy.singleDashLong ||
      arg.startsWith('--') ||
      Object.hasOwn(policy.flags, arg) ||
      Object.hasOwn(policy.refusedFlags ?? {}, arg)
    const step = isLong
      ? readLongFlag(name, arg, args, index, policy)
      : readShortCluster(name, arg, args, index, policy)
    if (typeof step === 'string') return fail(step)
    parsed.flags.push(...step.flags)
    index = step.next
  }
  if (policy.maxPositionals !== undefined && parsed.positionals.length > policy.maxPositionals) {
    return fail(`${name} takes at most ${policy.maxPositionals} operand(s) when read-only`)
  }
  return { ok: true, parsed }
}

/**
 * GNU tar reads a first argument without a dash as option letters whose values follow in order
 * (`tar tf a.tar`, `tar I ./prog -tf a.tar`): rewrite it as dashed flags, each letter checked against
 * the same table, so no letter slips past as an operand.
 */
function expandOldStyleCluster(name: string, args: string[], policy: CommandPolicy): string[] | string {
  const first = args[0]
  if (first === undefined || first.startsWith('-')) return args
  const flags: string[] = []
  let next = 1
  for (const letter of first) {
    const flag = `-${letter}`
    const kind = Object.hasOwn(policy.flags, flag) ? policy.flags[flag] : undefined
    if (kind === undefined) return `${refusal(name, flag, policy)} (old-style option letter in ${first})`
    flags.push(flag)
    if (kind === 'none') continue
    const value = args[next]
    if (value === undefined) return `${name} ${flag} needs a value (old-style option letter in ${first})`
    flags.push(value)
    next += 1
  }
  return [...flags, ...args.slice(next)]
}

type Step = { flags: ParsedArgs['flags']; next: number } | string

function refusal(name: string, flag: string, policy: CommandPolicy): string {
  const known =
    policy.refusedFlags && Object.hasOwn(policy.refusedFlags, flag) ? policy.refusedFlags[flag] : undefined
  return known ?? `${name} ${flag} is not a flag known to be read-only`
}

function readLongFlag(name: string, arg: string, args: string[], next: number, policy: CommandPolicy): Step {
  const equals = arg.indexOf('=')
  const flag = equals === -1 ? arg : arg.slice(0, equals)
  const attached = equals === -1 ? null : arg.slice(equals + 1)
  const kind = Object.hasOwn(policy.flags, flag) ? policy.flags[flag] : undefined
  if (kind === undefined) return refusal(name, flag, policy)
  if (kind === 'none') {
    return attached === null ? { flags: [{ flag, value: null }], next } : `${name} ${flag} takes no value`
  }
  if (attached === null && kind === 'lastArgDefault' && next >= args.length) {
    return { flags: [{ flag, value: null }], next }
  }
  if (attached !== null || kind === 'optionalString') {
    const problem = attached === null ? null : valueProblem(name, flag, kind, attached)
    return problem ?? { flags: [{ flag, value: attached }], next }
  }
  return takeNext(name, flag, kind, args, next)
}

function readShortCluster(
  name: string,
  arg: string,
  args: string[],
  next: number,
  policy: CommandPolicy,
): Step {
  const flags: ParsedArgs['flags'] = []
  for (let position = 1; position < arg.length; position += 1) {
    const flag = `-${arg[position]}`
    const kind = Object.hasOwn(policy.flags, flag) ? policy.flags[flag] : undefined
    if (kind === undefined) return refusal(name, flag, policy)
    if (kind === 'none') {
      flags.push({ flag, value: null })
      continue
    }
    const rest = arg.slice(position + 1)
    if (rest !== '' || kind === 'optionalString') {
      const problem = rest === '' ? null : valueProblem(name, flag, kind, rest)
      if (problem) return problem
      flags.push({ flag, value: rest === '' ? null : rest })
      return { flags, next }
    }
    const taken = takeNext(name, flag, kind, args, next)
    if (typeof taken === 'string') return taken
    return { flags: [...flags, ...taken.flags], next: taken.next }
  }
  return { flags, next }
}

function takeNext(name: string, flag: string, kind: FlagValueKind, args: string[], next: number): Step {
  const value = args[next]
  if (value === undefined) return `${name} ${flag} needs a value`
  const problem = valueProblem(name, flag, kind, value)
  return problem ?? { flags: [{ flag, value }], next: next + 1 }
}

function valueProblem(name: string, flag: string, kind: FlagValueKind, value: string): string | null {
  if (kind === 'number' && !NUMBER.test(value))
    return `${name} ${flag} expects a number, got ${JSON.stringify(value)}`
  if (kind === 'char' && !ONE_CHARACTER.test(value)) return `${name} ${flag} expects one character`
  if (kind === '{}' && value !== '{}') return `${name} ${flag} is read-only only with the literal {}`
  if (kind === 'EOF' && value !== 'EOF') return `${name} ${flag} is read-only only with the literal EOF`
  return null
}
