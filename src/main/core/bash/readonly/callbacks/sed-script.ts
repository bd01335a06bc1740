import type { PolicyCheck } from '../flag-types'

// Commands that take no argument or an optional number/label to the end of the command.
const PLAIN_COMMANDS = new Set([
  '=',
  'd',
  'D',
  'g',
  'G',
  'h',
  'H',
  'n',
  'N',
  'p',
  'P',
  'x',
  'z',
  'F',
  '{',
  '}',
])
const NUMBER_COMMANDS = new Set(['l', 'L', 'q', 'Q'])
const LABEL_COMMANDS = new Set(['b', 't', 'T', ':', 'v'])
const TEXT_COMMANDS = new Set(['a', 'i', 'c'])
// r/R only read a file into the output.
const READ_FILE_COMMANDS = new Set(['r', 'R'])

/**
 * Why a sed script is not read-only: the `w`/`W` commands and the `w` flag of `s` write files, `e`
 * and the `e` flag of `s` run shell commands. A script we cannot follow is refused too.
 */
export function findSedScriptProblem(script: string): string | null {
  const reader = { text: script, at: 0 }
  while (reader.at < script.length) {
    skipBlanks(reader, ' \t\n;')
    if (reader.at >= script.length) break
    if (!skipAddresses(reader)) return `sed cannot follow the address in ${JSON.stringify(script)}`
    skipBlanks(reader, ' \t')
    const command = script[reader.at] ?? ''
    reader.at += 1
    if (command === '#') skipToLineEnd(reader)
    else if (command === 'w' || command === 'W') return `sed ${command} writes to a file`
    else if (command === 'e') return 'sed e runs a shell command'
    else if (command === 's') {
      const problem = readSubstitute(reader)
      if (problem) return problem
    } else if (command === 'y') {
      if (!readDelimited(reader, 2)) return 'sed cannot follow a y command'
    } else if (TEXT_COMMANDS.has(command) || READ_FILE_COMMANDS.has(command)) skipToLineEnd(reader)
    else if (LABEL_COMMANDS.has(command)) skipLabel(reader)
    else if (NUMBER_COMMANDS.has(command)) skipBlanks(reader, ' \t0123456789')
    else if (!PLAIN_COMMANDS.has(command))
      return `sed command ${JSON.stringify(command)} is not known to be read-only`
  }
  return null
}

interface Reader {
  text: string
  at: number
}

function skipBlanks(reader: Reader, blanks: string): void {
  while (reader.at < reader.text.length && blanks.includes(reader.text[reader.at] as string)) reader.at += 1
}

function skipToLineEnd(reader: Reader): void {
  while (reader.at < reader.text.length && reader.text[reader.at] !== '\n') {
    // A backslash continues a/i/c text on the next line.
    if (reader.text[reader.at] === '\\') reader.at += 1
    reader.at += 1
  }
}

function skipLabel(reader: Reader): void {
  while (reader.at < reader.text.length && !'\n;'.includes(reader.text[reader.at] as string)) reader.at += 1
}

/** Addresses: `12`, `$`, `/re/I`, `\%re%`, `first~step`, `addr,+N`, `0,/re/`, then `!`. */
function skipAddresses(reader: Reader): boolean {
  for (let count = 0; count < 2; count += 1) {
    const char = reader.text[reader.at]
    if (char === undefined) return true
    if (/[0-9$~+]/.test(char)) skipBlanks(reader, '0123456789$~+')
    else if (char === '/' || char === '\\') {
      if (char === '\\') reader.at += 1
      if (!readDelimited(reader, 1)) return false
      skipBlanks(reader, 'IM')
    }
    if (reader.text[reader.at] !== ',') break
    reader.at += 1
  }
  skipBlanks(reader, ' \t!')
  return true
}

/** Read `count` delimiter-terminated fields starting at the delimiter; false when unterminated. */
function readDelimited(reader: Reader, count: number): boolean {
  const delimiter = reader.text[reader.at]
  if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false
  reader.at += 1
  for (let field = 0; field < count; field += 1) {
    while (reader.text[reader.at] !== delimiter) {
      if (reader.at >= reader.text.length) return false
      if (reader.text[reader.at] === '\\') reader.at += 1
      reader.at += 1
    }
    reader.at += 1
  }
  return true
}

function readSubstitute(reader: Reader): string | null {
  if (!readDelimited(reader, 2)) return 'sed cannot follow an s command'
  while (reader.at < reader.text.length && !' \t\n;}'.includes(reader.text[reader.at] as string)) {
    const flag = reader.text[reader.at] as string
    if (flag === 'w') return 'sed s///w writes to a file'
    if (flag === 'e') return 'sed s///e runs the pattern space as a shell command'
    if (!/[gpiImM0-9]/.test(flag)) return `sed s flag ${JSON.stringify(flag)} is not known to be read-only`
    reader.at += 1
  }
  return null
}

/** The scripts sed runs: every -e/--expression value, or else the first operand. */
export const sedScriptCheck: PolicyCheck = ({ flags, positionals }) => {
  const scripts = flags.filter((f) => f.flag === '-e' || f.flag === '--expression').map((f) => f.value ?? '')
  if (scripts.length === 0 && positionals[0] !== undefined) scripts.push(positionals[0])
  for (const script of scripts) {
    const problem = findSedScriptProblem(script)
    if (problem) return problem
  }
  return null
}
