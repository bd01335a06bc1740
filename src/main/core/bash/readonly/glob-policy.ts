import type { AnalyzedCommand } from '../analysis/command-analysis'
import { globSemantics, type ShellGlobbing, UNKNOWN_GLOBBING } from '../places/shell-globbing'

/** What the glob rules need to know about the command and the shell. */
export interface GlobContext {
  globbing: ShellGlobbing
  /** Every word the tool takes as an operand is a file it reads (cat, ls, head): a glob there can only add files. */
  operandsAreFiles: boolean
  /** No flag of the tool reads or writes a file or runs anything (verdict-flags' tables), so any flag a glob becomes only changes how it prints. */
  flagsAreHarmless: boolean
}

/**
 * Class 4 of the bypasses, and issue 21.2/21.5: a glob expands to whatever files exist, so a
 * planted `-delete`, `-ooutput` or `--output=x` becomes a flag, or a second file becomes an output
 * operand. A glob word is accepted when
 *  - it comes after the `--` that ended the options of a tool that reads every later word as a
 *    file (`cat -- *`);
 *  - every word it can become starts with a literal that is not `-` (`src/*.ts`, `./*.md`) and
 *    the tool reads operands as files;
 *  - the tool has no flag that reads or writes a file or runs anything (`ls *.sh`): whatever flag
 *    a match turns into, the tool only prints differently;
 *  - it is the value of a string flag (`--include=*.ts`).
 * Which words are globs at all follows the session's shell: `^x` and `a#` are patterns to zsh
 * with EXTENDED_GLOB (`HEAD^` too, so git refuses it unless the shell is known to be bash).
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
  context: GlobContext = STRICT,
): string | null {
  const semantics = globSemantics(context.globbing)
  for (const [index, glob] of part.globs.entries()) {
    if (glob === null || !(glob.bash || (glob.zsh && semantics.zshExtended))) continue
    const stripped = index - offset
    if (stripped < 0) return `${glob.pattern}: a glob in the command's name runs whatever file it matches`
    if (fileOperandsAfter !== null && stripped > fileOperandsAfter) continue
    const word = part.argv?.[index] ?? ''
    if (isGlobInFlagValue(word, valueFlags)) continue
    if (context.flagsAreHarmless) continue
    const neverAFlag = glob.prefix !== '' && !glob.prefix.startsWith('-')
    if (neverAFlag && context.operandsAreFiles) continue
    const after =
      fileOperandsAfter === null
        ? ''
        : ' (only a glob after the `--` that ends the options is read as file names)'
    return `${label} ${word}: an unquoted glob expands to whatever files exist, and a file named like a flag (-delete, -o…, --output=…) or one operand too many would change what ${label} does${after}`
  }
  return null
}

/** Every glob is judged by the strictest reading when the caller says nothing. */
const STRICT: GlobContext = { globbing: UNKNOWN_GLOBBING, operandsAreFiles: false, flagsAreHarmless: false }

const NO_FLAGS: ReadonlySet<string> = new Set()

/**
 * `--include=*.ts`: every word the glob can become starts with the literal `--include=`, so it stays
 * that flag with some value. Only for string-valued flags of the table, whose every value is read-only.
 */
function isGlobInFlagValue(word: string, valueFlags: ReadonlySet<string>): boolean {
  const match = /^(--[A-Za-z0-9][A-Za-z0-9-]*)=/.exec(word)
  return match !== null && valueFlags.has(match[1] as string)
}
