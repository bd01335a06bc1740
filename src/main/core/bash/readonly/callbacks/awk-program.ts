import type { PolicyCheck } from '../flag-types'

// Words that run a program, read the environment or load code.
const REFUSED_WORDS: Record<string, string> = {
  system: 'awk system() runs a shell command',
  ENVIRON: 'awk ENVIRON reads the environment, which holds secrets',
  PROCINFO: 'awk PROCINFO can change how awk runs commands',
  // BEGIN{ARGV[1]="/proc/self/environ"; ARGC=2} reads a file no operand names.
  ARGV: 'awk ARGV can name other files to read than the operands the path checks saw',
  SYMTAB: 'gawk SYMTAB reaches every variable (ENVIRON, ARGV) by name',
  FUNCTAB: 'gawk FUNCTAB reaches every function (system) by name',
}
// Newlines do not end a statement after `,`, `&&`, `||`, `do`, `else`, or a backslash
// (`print "a",⏎"b" > "out"`), so only these split the program for the print and getline checks.
const SEPARATORS = /[;{}]/

/**
 * Why an awk program is not read-only, or null. Fail-closed over the program text with its
 * strings and regex literals taken out: no system(), ENVIRON or @load/@include; inside a
 * print/printf statement no `>` or `|` at all (a redirect or a pipe to a command, or a comparison
 * we do not tell apart); elsewhere `|` only as `||`; getline only from the input, never
 * `cmd | getline` or `getline < file`.
 */
export function findAwkProgramProblem(program: string): string | null {
  const code = stripLiterals(program)
  if (code === BRACKET_SLASH)
    return 'awk regex with a / inside [ ], which awks read differently (mawk and gawk: not the end)'
  if (code === DIVISION)
    return "awk / after a value is division or a regex depending on awk's grammar, which this check does not follow"
  if (code === null) return 'awk program with a string or regex that does not end'
  if (code.includes('@')) return 'awk @load/@include loads code from a file'
  for (const [word, reason] of Object.entries(REFUSED_WORDS)) {
    if (new RegExp(`\\b${word}\\b`).test(code)) return reason
  }
  for (const statement of code.split(SEPARATORS)) {
    if (/\bprintf?\b/.test(statement) && /[>|]/.test(statement))
      return 'awk print with > or | writes to a file or a command'
    if (/\|(?!\|)/.test(statement.replace(/\|\|/g, ''))) return 'awk | pipes to or from a command'
    if (/\bgetline\b/.test(statement) && /</.test(statement)) return 'awk getline < reads another file'
  }
  return null
}

const DIVISION = Symbol('division')
const BRACKET_SLASH = Symbol('bracket-slash')

/**
 * The program with "strings" and /regexes/ blanked; null when one does not end. A `/` right after
 * a value (`a / b`, but also `print /"/`) is division or a regex by awk's grammar: reading it the
 * wrong way would hide code inside a string, so such a program is refused.
 */
function stripLiterals(program: string): string | null | typeof DIVISION | typeof BRACKET_SLASH {
  let out = ''
  let previous = ''
  for (let at = 0; at < program.length; at += 1) {
    const char = program[at] as string
    const regexHere = char === '/' && (previous === '' || '(,!~&|{};\n'.includes(previous))
    if (char === '/' && !regexHere) return DIVISION
    if (char === '"' || regexHere) {
      const end = closing(program, at, char)
      if (end < 0) return null
      // mawk and gawk do not end /[/"]/ at the / inside the brackets, one-true-awk does: read the
      // wrong way, the rest of the line hides inside a "string" (/[/"]/ {system(c)} # ").
      if (regexHere && closingOutsideBrackets(program, at) !== end) return BRACKET_SLASH
      out += char === '"' ? '""' : '//'
      at = end
      previous = char
      continue
    }
    out += char
    if (!/\s/.test(char)) previous = char
  }
  return out
}

/** The regex's closing `/` when a `/` inside `[…]` does not end it (gawk, mawk); -1 when none. */
function closingOutsideBrackets(text: string, open: number): number {
  let inBracket = false
  for (let at = open + 1; at < text.length; at += 1) {
    const char = text[at]
    if (char === '\\') at += 1
    else if (char === '\n') return -1
    else if (inBracket) {
      if (char === ']') inBracket = false
    } else if (char === '[') {
      inBracket = true
      if (text[at + 1] === '^') at += 1
      if (text[at + 1] === ']') at += 1
    } else if (char === '/') return at
  }
  return -1
}

function closing(text: string, open: number, quote: string): number {
  for (let at = open + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1
    else if (text[at] === quote) return at
    else if (text[at] === '\n') return -1
  }
  return -1
}

/** The program is the first operand (-f programs are refused by the table). */
export const awkProgramCheck: PolicyCheck = ({ positionals }) => {
  const program = positionals[0]
  if (program === undefined) return 'awk without a program'
  return findAwkProgramProblem(program)
}
