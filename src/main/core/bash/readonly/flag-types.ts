/**
 * What a known-safe flag takes: nothing, a number, any string, a string only when attached
 * (`--color=auto`), one character, exactly the literal `{}` / `EOF` (xargs -I / -E), or a file name.
 */
export type FlagValueKind =
  | 'none'
  | 'number'
  | 'string'
  | 'optionalString'
  | 'char'
  | '{}'
  | 'EOF'
  /** git's PARSE_OPT_LASTARG_DEFAULT: the next word is the value, unless the flag is the last word. */
  | 'lastArgDefault'
  /** The value names a file the tool reads (and may print back): judged as a place read. */
  | 'file'
  /** The value names a file that lists more files the tool reads (`--files0-from`): those are known only at run time. */
  | 'fileList'

/** The arguments of one command, once every flag passed its table. */
export interface ParsedArgs {
  /** Every flag in order with its value (null for `none` flags), by the spelling used. */
  flags: Array<{ flag: string; value: string | null }>
  positionals: string[]
  /** Index in the given arguments of the `--` that ended the options; null when there was none. */
  endOfOptions: number | null
}

/** A semantic check the flag table cannot express; returns why the command is not read-only, or null. */
export type PolicyCheck = (parsed: ParsedArgs, context: PolicyContext) => string | null

export interface PolicyContext {
  command: string
  platform: NodeJS.Platform
  /**
   * Classify the command inside a `$(…)`, one level deeper; absent when the depth limit is
   * reached, so a substitution there is refused.
   */
  classifyInner?: (command: string) => { readOnly: boolean; reason: string; asks: number }
}

export interface CommandPolicy {
  flags: Record<string, FlagValueKind>
  /** Flags known to write or run something, with the reason shown to the user. */
  refusedFlags?: Record<string, string>
  /** Some flag of this command can write or run a program, so an unquoted leading glob is refused. */
  flagsCanWrite?: boolean
  /** `head -20` / `tail -20`: a dash and a count is the line count. */
  dashCount?: boolean
  /** Every `-word` is one flag, never a cluster (find's `-name`, xxd's `-cols`). */
  singleDashLong?: boolean
  /** Options end at the first positional (xargs and its driven command, getopt `+` style). */
  optionsEndAtFirstPositional?: boolean
  /** tar: a first argument without a dash is a cluster of old-style letters (`tar tvf a.tar`). */
  oldStyleFirstArg?: boolean
  maxPositionals?: number
  /** A second operand changes what the command does (`uniq IN OUT`), so no glob may stand for several. */
  operandCountMatters?: boolean
  /**
   * The tool reads every word after `--` as a file and nothing in it as code, so an unquoted glob
   * there can only become more file names (`cat -- *.ts`). Opt-in: find, sed, jq, xargs… read
   * operands as expressions or scripts, so a glob stays refused anywhere for them.
   */
  globOperandsAfterDoubleDash?: boolean
  check?: PolicyCheck
}

/** Build a flag table from space-separated flag lists per value kind. */
export function flagTable(spec: Partial<Record<FlagValueKind, string>>): Record<string, FlagValueKind> {
  const table: Record<string, FlagValueKind> = {}
  for (const [kind, list] of Object.entries(spec) as Array<[FlagValueKind, string]>) {
    for (const flag of list.split(/\s+/)) if (flag) table[flag] = kind
  }
  return table
}
