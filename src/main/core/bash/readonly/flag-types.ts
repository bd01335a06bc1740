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
  /**
   * Every flag in order with its value (null for `none` flags), by the name the table gives it: an
   * abbreviation (`--fi`) is resolved to the option it means (`--file`).
   */
  flags: Array<{ flag: string; value: string | null }>
  positionals: string[]
  /** Index in the given arguments of the `--` that ended the options; null when there was none. */
  endOfOptions: number | null
  /** Files the tool reads because a flag names them (`grep -f F`, `diff --from-file=F`, `@F`). */
  readFiles: string[]
  /** A file read names more files the tool reads (`--files0-from`, `@FILE`): known only at run time. */
  runTimeFiles: boolean
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
  /** git's `-20`: a dash and a count, alone in its word, is the count. */
  dashCount?: boolean
  /**
   * head/tail read a first argument in their obsolete syntax (`head -5c`, `tail +3f`) as one option
   * word before getopt sees the rest; a word matching this, first, is that.
   */
  obsoleteFirst?: RegExp
  /**
   * binutils expand every `@FILE` word, wherever it is (after `--` too), into the words FILE holds
   * before they read any option.
   */
  responseFiles?: boolean
  /** The operands the tool opens as files although they look like names (`who FILE`). */
  operandFiles?: (positionals: readonly string[]) => readonly string[]
  /** Words starting with `+` are options too, looked up as `+D` (lsof). */
  plusOptions?: boolean
  /** Flags that make every operand a list of more files to read (`md5sum -c LIST`). */
  runTimeFilesWith?: readonly string[]
  /** Long options that are one option in the tool (`--color --colour`): a prefix of both is not ambiguous. */
  aliases?: readonly string[]
  /**
   * The command reads no option at all (a shell builtin like echo, test, true): every word is an
   * operand it prints, compares or ignores.
   */
  operandsOnly?: boolean
  /** The tool matches long options exactly (its own parser, not getopt_long): no abbreviations. */
  exactLongOptions?: boolean
  /**
   * Every long option the tool has, beyond the table: a prefix is resolved among all of them (so
   * one the tool finds ambiguous is ambiguous here), and one of them written in full, or the one
   * a prefix stands for, is not read-only unless the table has it.
   */
  knownLongOptions?: readonly string[]
  /**
   * git's parse-options: `--no-X` (one the tool knows) resets X, so it is read as X never given.
   * Maps each long option to its one-letter spellings (`--list` → `-l`), which it resets too.
   */
  negations?: ReadonlyMap<string, readonly string[]>
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
