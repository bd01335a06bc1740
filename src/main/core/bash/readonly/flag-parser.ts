import { resolveLongOption } from './flag-index'
import type { CommandPolicy, FlagValueKind, ParsedArgs } from './flag-types'

export type FlagCheck = { ok: true; parsed: ParsedArgs } | { ok: false; reason: string }

const NUMBER = /^-?\d+$/
// One character, or one written as an escape the tool decodes: `\n`, `\t`, `\x1f`, `\0`.
const ONE_CHARACTER = /^(?:[^\\]|\\[\\abfnrtv0]|\\x[0-9a-fA-F]{1,2}|\\[0-7]{1,3})$/u

/**
 * Read `args` (argv without the command name) as GNU getopt_long does, driven by the command's
 * table: `--flag=value` and `--flag value`, any unambiguous prefix of a long option (`--fi` for
 * `--file`), optional values only when attached (`--color=auto`, `-I5`), clusters like `-la` where
 * a value flag takes the rest of the word (`-vfFILE`), `--` ending the options, and options after
 * operands (getopt permutes) unless the table says options end at the first operand. A flag the
 * table does not know, a refused one, or an ambiguous prefix is not read-only.
 */
export function parseFlags(name: string, given: string[], policy: CommandPolicy): FlagCheck {
  const expanded = policy.oldStyleFirstArg ? expandOldStyleCluster(name, given, policy) : given
  if (typeof expanded === 'string') return { ok: false, reason: expanded }
  const args = expanded
  if (policy.operandsOnly)
    return {
      ok: true,
      parsed: { flags: [], positionals: [...args], endOfOptions: null, readFiles: [], runTimeFiles: false },
    }
  const parsed: ParsedArgs = {
    flags: [],
    positionals: [],
    endOfOptions: null,
    readFiles: [],
    runTimeFiles: false,
  }
  const responseProblem = policy.responseFiles ? readResponseFiles(name, args, policy, parsed) : null
  if (responseProblem) return { ok: false, reason: responseProblem }
  let index = 0
  const first = args[0]
  if (policy.obsoleteFirst && first !== undefined && policy.obsoleteFirst.test(first)) {
    parsed.flags.push({ flag: first, value: null })
    index = 1
  }
  while (index < args.length) {
    const arg = args[index] as string
    index += 1
    if (arg === '--') {
      parsed.endOfOptions = index - 1
      parsed.positionals.push(...args.slice(index))
      break
    }
    const plus = policy.plusOptions === true && arg.startsWith('+') && arg.length > 1
    if ((!arg.startsWith('-') && !plus) || arg === '-') {
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
    const step =
      !plus && (policy.singleDashLong || arg.startsWith('--'))
        ? readLongFlag(name, arg, args, index, policy)
        : readShortCluster(name, arg, args, index, policy)
    if (typeof step === 'string') return { ok: false, reason: step }
    // A file a reset flag named stays among the reads: judging one more file only asks more.
    if (step.resets) parsed.flags = parsed.flags.filter((flag) => !step.resets?.includes(flag.flag))
    for (const flag of step.flags) record(parsed, flag, policy)
    index = step.next
  }
  if (policy.operandFiles) parsed.readFiles.push(...policy.operandFiles(parsed.positionals))
  const listFlags = policy.runTimeFilesWith
  if (listFlags && parsed.flags.some((flag) => listFlags.includes(flag.flag))) parsed.runTimeFiles = true
  if (policy.maxPositionals !== undefined && parsed.positionals.length > policy.maxPositionals) {
    return { ok: false, reason: `${name} takes at most ${policy.maxPositionals} operand(s) when read-only` }
  }
  return { ok: true, parsed }
}

/** Keep the flag, and the file its value names when the table says it names one. */
function record(parsed: ParsedArgs, flag: ParsedArgs['flags'][number], policy: CommandPolicy): void {
  parsed.flags.push(flag)
  const kind = policy.flags[flag.flag]
  if ((kind === 'file' || kind === 'fileList') && flag.value !== null) parsed.readFiles.push(flag.value)
  if (kind === 'fileList') parsed.runTimeFiles = true
}

/**
 * binutils' expandargv replaces every `@FILE` word with the words in FILE before getopt runs, after
 * `--` and inside a flag's value too; a file it cannot open stays the literal word. Those words may
 * be any option and name any file, so FILE is read and the rest is known only at run time; a tool
 * with a flag that writes or runs something is not read-only with one at all.
 */
function readResponseFiles(name: string, args: string[], policy: CommandPolicy, parsed: ParsedArgs) {
  for (const arg of args) {
    if (!arg.startsWith('@') || arg.length === 1) continue
    if (policy.flagsCanWrite || Object.keys(policy.refusedFlags ?? {}).length > 0)
      return `${name} ${arg} reads more arguments from ${arg.slice(1)}, where any flag of ${name} may be, one that writes or runs a program too`
    parsed.readFiles.push(arg.slice(1))
    parsed.runTimeFiles = true
  }
  return null
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
    if (kind === undefined)
      return `${refusal(name, flag, flag, policy)} (old-style option letter in ${first})`
    flags.push(flag)
    if (kind === 'none') continue
    const value = args[next]
    if (value === undefined) return `${name} ${flag} needs a value (old-style option letter in ${first})`
    flags.push(value)
    next += 1
  }
  return [...flags, ...args.slice(next)]
}

type Step = { flags: ParsedArgs['flags']; next: number; resets?: readonly string[] } | string

function refusal(name: string, flag: string, written: string, policy: CommandPolicy): string {
  const known =
    policy.refusedFlags && Object.hasOwn(policy.refusedFlags, flag) ? policy.refusedFlags[flag] : undefined
  const spelled = written === flag ? '' : ` (${written} is ${flag})`
  return known ? `${known}${spelled}` : `${name} ${written} is not a flag known to be read-only`
}

function readLongFlag(name: string, arg: string, args: string[], next: number, policy: CommandPolicy): Step {
  const equals = arg.indexOf('=')
  const written = equals === -1 ? arg : arg.slice(0, equals)
  const attached = equals === -1 ? null : arg.slice(equals + 1)
  const resolved = resolveLongOption(policy, written)
  if (resolved.kind === 'ambiguous')
    return `${name} ${written} is ambiguous: it abbreviates ${resolved.candidates.join(', ')}`
  if (resolved.kind === 'unknown') return refusal(name, written, written, policy)
  const flag = resolved.name
  const kind = Object.hasOwn(policy.flags, flag) ? policy.flags[flag] : undefined
  if (kind === undefined) {
    const resets = negationOf(flag, policy)
    if (resets === null) return refusal(name, flag, written, policy)
    return attached === null ? { flags: [], next, resets } : `${name} ${flag} takes no value`
  }
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

/**
 * `--no-X` for an X of the table, in a tool that resets X with it: X and its one-letter spellings
 * as if never given, so what the rest of the command then does is judged (`git branch -l --no-list
 * new` creates `new`). null when it is not such a negation.
 */
function negationOf(flag: string, policy: CommandPolicy): readonly string[] | null {
  if (!policy.negations || !flag.startsWith('--no-')) return null
  if (policy.refusedFlags && Object.hasOwn(policy.refusedFlags, flag)) return null
  const positive = `--${flag.slice('--no-'.length)}`
  if (!Object.hasOwn(policy.flags, positive)) return null
  return [positive, ...(policy.negations.get(positive) ?? [])]
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
    const flag = `${arg[0]}${arg[position]}`
    const kind = Object.hasOwn(policy.flags, flag) ? policy.flags[flag] : undefined
    if (kind === undefined) return refusal(name, flag, flag, policy)
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
