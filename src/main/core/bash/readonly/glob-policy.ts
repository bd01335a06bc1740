import type { AnalyzedCommand } from '../analysis/command-analysis'

/**
 * Commands without a flag table that read every word after `--` as a file name (GNU getopt) and
 * whose other words cannot run anything. `test`, `[`, `echo`, `expr` are absent on purpose: they
 * do not honour `--`, and `test` evaluates `-v 'a[$(…)]'`.
 */
export const ANY_ARGS_GLOBS_AFTER_DOUBLE_DASH: ReadonlySet<string> = new Set([
  'ls',
  'dir',
  'vdir',
  'du',
  'stat',
  'realpath',
  'readlink',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'sum',
  'cmp',
  'comm',
  'diff',
  'tac',
  'rev',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'paste',
  'nl',
  'od',
  'strings',
  'basename',
  'dirname',
])

/**
 * Class 4 of the bypasses: a glob hidden anywhere in a word (`''*`, `''[-]delete`, `x''*`) expands
 * to whatever files exist, and a planted `-delete`, `-ooutput` or `--output=x` then becomes a flag,
 * or a second file becomes an output operand. So an unquoted glob character anywhere in a word
 * makes the word unknown, unless it comes after the `--` that ended the options of a tool that reads
 * everything after it as file names.
 *
 * `offset` is how many wrapper words (`command`, `builtin`) were stripped from the front of the
 * argv; `fileOperandsAfter` is the stripped-argv index of that `--`, or null when there is none or
 * the tool does not honour it.
 */
export function findGlobProblem(
  part: AnalyzedCommand,
  label: string,
  offset: number,
  fileOperandsAfter: number | null,
  valueFlags: ReadonlySet<string> = NO_FLAGS,
): string | null {
  for (const index of part.globArgs) {
    const stripped = index - offset
    if (fileOperandsAfter !== null && stripped > fileOperandsAfter) continue
    const word = part.argv?.[index] ?? ''
    if (isGlobInFlagValue(word, valueFlags)) continue
    const after =
      fileOperandsAfter === null
        ? ''
        : ' (only a glob after the `--` that ends the options is read as file names)'
    return `${label} ${word}: an unquoted glob expands to whatever files exist, and a file named like a flag (-delete, -o…, --output=…) or one operand too many would change what ${label} does${after}`
  }
  return null
}

const NO_FLAGS: ReadonlySet<string> = new Set()

/**
 * `--include=*.ts`: every word the glob can become starts with the literal `--include=`, so it stays
 * that flag with some value. Only for string-valued flags of the table, whose every value is read-only.
 */
function isGlobInFlagValue(word: string, valueFlags: ReadonlySet<string>): boolean {
  const match = /^(--[A-Za-z0-9][A-Za-z0-9-]*)=/.exec(word)
  return match !== null && valueFlags.has(match[1] as string)
}

/** The stripped-argv index of the first literal `--` at or after `from`, or null. */
export function literalDoubleDash(
  part: AnalyzedCommand,
  argv: string[],
  offset: number,
  from: number,
): number | null {
  for (let index = from; index < argv.length; index += 1) {
    if (argv[index] === '--' && !part.globArgs.includes(index + offset)) return index
  }
  return null
}
