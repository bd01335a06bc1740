/**
 * A fail-closed reading of GNU sed scripts (sed/compile.c), accepting only commands that read.
 * Whatever this grammar does not understand is refused with what it did not understand: a script
 * it accepts must compile, in GNU sed, to exactly the commands it lists (a test compares the two
 * with `sed --debug` on generated scripts).
 */

export interface SedCommand {
  /** The command letter: `p`, `s`, `{`, `}`, `:`… */
  name: string
  /** For `s`: its flags as written (`g`, `2p`, `I`). */
  flags?: string
}

export type SedParse = { ok: true; commands: SedCommand[] } | { ok: false; problem: string }

// Commands that take nothing more.
const PLAIN = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F'])
// Commands that take an optional number: `q5`, `l 40`.
const WITH_NUMBER = new Set(['l', 'q', 'Q'])
const BRANCHES = new Set(['b', 't', 'T'])
const TEXT = new Set(['a', 'i', 'c'])
const REFUSED: Record<string, string> = {
  e: 'sed e runs a shell command',
  w: 'sed w writes to a file',
  W: 'sed W writes to a file',
  r: 'sed r reads another file into the output, which the path checks do not see',
  R: 'sed R reads another file into the output, which the path checks do not see',
  L: 'sed L is an old command this reading does not follow',
}
// Delimiters for s, y and \cREc addresses: punctuation only, so no letter or digit is ambiguous.
const DELIMITERS = new Set([...'/|,:#@!%^_=+~.-;"\''])
const LABEL = /^[A-Za-z0-9_.-]+/
const BLANKS = ' \t'

class Fail extends Error {}

class Reader {
  at = 0
  constructor(readonly text: string) {}
  peek(offset = 0): string | undefined {
    return this.text[this.at + offset]
  }
  done(): boolean {
    return this.at >= this.text.length
  }
  skip(chars: string): void {
    while (!this.done() && chars.includes(this.text[this.at] as string)) this.at += 1
  }
  fail(what: string): never {
    throw new Fail(`${what} at offset ${this.at} of the sed script ${JSON.stringify(this.text.slice(0, 80))}`)
  }
}

/** Parse a whole script (every -e joined by newlines, as sed joins them). Never throws. */
export function parseSedScript(script: string): SedParse {
  try {
    return { ok: true, commands: readScript(new Reader(script)) }
  } catch (error) {
    if (error instanceof Fail) return { ok: false, problem: error.message }
    return { ok: false, problem: `the sed script could not be read: ${(error as Error).message}` }
  }
}

function readScript(reader: Reader): SedCommand[] {
  const commands: SedCommand[] = []
  let depth = 0
  for (;;) {
    reader.skip(' \t\n;')
    if (reader.done()) break
    if (reader.peek() === '#') {
      skipComment(reader)
      continue
    }
    const addressed = readAddresses(reader)
    reader.skip(BLANKS)
    const name = reader.peek()
    if (name === undefined) reader.fail('an address without a command')
    reader.at += 1
    if (Object.hasOwn(REFUSED, name)) throw new Fail(REFUSED[name] as string)
    if (name === '{') {
      depth += 1
      commands.push({ name })
      continue
    }
    if (name === '}') {
      if (addressed) reader.fail('an address before }')
      depth -= 1
      if (depth < 0) reader.fail('a } without its {')
      commands.push({ name })
    } else if (PLAIN.has(name)) commands.push({ name })
    else if (WITH_NUMBER.has(name)) {
      reader.skip(BLANKS)
      reader.skip('0123456789')
      commands.push({ name })
    } else if (name === ':') {
      if (addressed) reader.fail('an address before a : label')
      readLabel(reader, true)
      commands.push({ name })
    } else if (BRANCHES.has(name)) {
      readLabel(reader, false)
      commands.push({ name })
    } else if (name === 'v') {
      reader.skip(BLANKS)
      reader.skip('0123456789.')
      commands.push({ name })
    } else if (name === 's') commands.push({ name, flags: readSubstitute(reader) })
    else if (name === 'y') {
      readTransliterate(reader)
      commands.push({ name })
    } else if (TEXT.has(name)) {
      readText(reader, name)
      commands.push({ name })
      continue
    } else reader.fail(`the sed command ${JSON.stringify(name)}, which is not known to only read,`)
    readCommandEnd(reader)
  }
  if (depth !== 0) reader.fail('a { without its }')
  return commands
}

/** A comment ends at the newline; a backslash before it does not continue it (GNU). */
function skipComment(reader: Reader): void {
  while (!reader.done() && reader.peek() !== '\n') reader.at += 1
}

/** After a command: blanks, then the end, a newline, `;`, `}` or a comment. */
function readCommandEnd(reader: Reader): void {
  reader.skip(BLANKS)
  const next = reader.peek()
  if (next === undefined || next === '\n' || next === ';' || next === '}' || next === '#') return
  reader.fail(`unexpected ${JSON.stringify(next)} after a sed command`)
}

/**
 * A label is letters, digits, `_`, `.`, `-`. GNU 4.9 ends one at whitespace or `;`, older seds and
 * BSD only at the newline: ending it as early as the earliest reading means whatever follows is
 * read by us as commands, never skipped as a label.
 */
function readLabel(reader: Reader, required: boolean): void {
  reader.skip(BLANKS)
  const match = LABEL.exec(reader.text.slice(reader.at))
  if (!match) {
    if (required) reader.fail('a : without a label')
    return
  }
  reader.at += match[0].length
}

/** `1`, `$`, `/re/I`, `\%re%`, `first~step`, then `,` and `N`, `+N`, `~N`, `$` or a regex; then `!`. */
function readAddresses(reader: Reader): boolean {
  if (!readAddress(reader, false)) return false
  if (reader.peek() === ',') {
    reader.at += 1
    if (!readAddress(reader, true)) reader.fail('a , without a second address')
  }
  reader.skip(BLANKS)
  if (reader.peek() === '!') {
    reader.at += 1
    reader.skip(BLANKS)
  }
  return true
}

function readAddress(reader: Reader, second: boolean): boolean {
  const char = reader.peek()
  if (char === undefined) return false
  if (char === '$') {
    reader.at += 1
    return true
  }
  if (second && (char === '+' || char === '~')) {
    reader.at += 1
    return readDigits(reader) || reader.fail(`a ${char} without a number`)
  }
  if (/[0-9]/.test(char)) {
    readDigits(reader)
    if (reader.peek() === '~') {
      reader.at += 1
      if (!readDigits(reader)) reader.fail('a ~ without a step')
    }
    return true
  }
  if (char === '/' || char === '\\') {
    if (char === '\\') reader.at += 1
    const delimiter = reader.peek()
    if (delimiter === undefined || !DELIMITERS.has(delimiter))
      reader.fail('an address delimiter this reading does not accept')
    reader.at += 1
    readRegex(reader, delimiter)
    reader.skip('IM')
    return true
  }
  return false
}

function readDigits(reader: Reader): boolean {
  const start = reader.at
  reader.skip('0123456789')
  return reader.at > start
}

/**
 * A regex up to its closing delimiter. sed versions differ on whether a delimiter inside `[…]`
 * ends the regex (GNU 4.9 and BSD: no; older GNU: yes) and on backslashes inside brackets, so the
 * regex is read three ways and must end at the same place in all of them.
 */
function readRegex(reader: Reader, delimiter: string): void {
  const ends = [
    scanRegex(reader.text, reader.at, delimiter, 'ignore-brackets'),
    scanRegex(reader.text, reader.at, delimiter, 'posix-brackets'),
    scanRegex(reader.text, reader.at, delimiter, 'escaping-brackets'),
  ]
  const end = ends[0] as number
  if (end < 0 || ends.some((other) => other !== end)) {
    reader.fail(
      end < 0
        ? 'a regex without its closing delimiter (or with a newline in it)'
        : `a ${delimiter} or backslash inside [ ] that sed versions read differently`,
    )
  }
  reader.at = end + 1
}

type BracketReading = 'ignore-brackets' | 'posix-brackets' | 'escaping-brackets'

/** The index of the closing delimiter, or -1 when there is none or a newline comes first. */
function scanRegex(text: string, start: number, delimiter: string, reading: BracketReading): number {
  let at = start
  while (at < text.length) {
    const char = text[at] as string
    if (char === '\n') return -1
    if (char === '\\') {
      if (text[at + 1] === '\n' || at + 1 >= text.length) return -1
      at += 2
      continue
    }
    if (char === delimiter) return at
    if (char === '[' && reading !== 'ignore-brackets') {
      at = skipBracket(text, at, reading === 'escaping-brackets')
      if (at < 0) return -1
      continue
    }
    at += 1
  }
  return -1
}

/** From `[` to just after its `]`, with `[^`, a leading `]`, and `[:class:]`, `[.x.]`, `[=x=]`. */
function skipBracket(text: string, open: number, backslashEscapes: boolean): number {
  let at = open + 1
  if (text[at] === '^') at += 1
  if (text[at] === ']') at += 1
  while (at < text.length) {
    const char = text[at] as string
    if (char === '\n') return -1
    if (char === ']') return at + 1
    if (char === '[' && ':.='.includes(text[at + 1] ?? '')) {
      const close = text.indexOf(`${text[at + 1]}]`, at + 2)
      if (close < 0) return -1
      at = close + 2
      continue
    }
    if (char === '\\' && backslashEscapes) at += 1
    at += 1
  }
  return -1
}

/** `s/re/replacement/flags`: the flags must not write (`w`) or execute (`e`). */
function readSubstitute(reader: Reader): string {
  const delimiter = reader.peek()
  if (delimiter === undefined || !DELIMITERS.has(delimiter))
    reader.fail('an s delimiter this reading does not accept')
  reader.at += 1
  readRegex(reader, delimiter)
  readReplacement(reader, delimiter)
  const start = reader.at
  while (!reader.done() && !' \t\n;}#'.includes(reader.peek() as string)) {
    const flag = reader.peek() as string
    if (flag === 'w') throw new Fail('sed s///w writes to a file')
    if (flag === 'e') throw new Fail('sed s///e runs the pattern space as a shell command')
    if (!/[gpiImM0-9]/.test(flag))
      reader.fail(`the s flag ${JSON.stringify(flag)}, which is not known to be read-only,`)
    reader.at += 1
  }
  return reader.text.slice(start, reader.at)
}

// The replacement has no bracket expressions in any sed; a newline (even escaped) is refused.
function readReplacement(reader: Reader, delimiter: string): void {
  while (!reader.done()) {
    const char = reader.peek() as string
    if (char === '\n') break
    if (char === '\\') {
      if (reader.peek(1) === '\n' || reader.peek(1) === undefined) break
      reader.at += 2
      continue
    }
    reader.at += 1
    if (char === delimiter) return
  }
  reader.fail('an s replacement without its closing delimiter (or with a newline in it)')
}

function readTransliterate(reader: Reader): void {
  const delimiter = reader.peek()
  if (delimiter === undefined || !DELIMITERS.has(delimiter))
    reader.fail('a y delimiter this reading does not accept')
  reader.at += 1
  readReplacement(reader, delimiter)
  readReplacement(reader, delimiter)
}

/**
 * `a text`, `a\` newline `text`: the text runs to the end of the line; a backslash takes the next
 * character literally, and a backslash before the newline would continue the text onto the next
 * line, which is refused rather than followed.
 */
function readText(reader: Reader, name: string): void {
  reader.skip(BLANKS)
  if (reader.peek() === '\\' && reader.peek(1) === '\n') reader.at += 2
  while (!reader.done() && reader.peek() !== '\n') {
    if (reader.peek() === '\\') {
      if (reader.peek(1) === '\n' || reader.peek(1) === undefined)
        reader.fail(`a backslash that continues the text of ${name} onto the next line`)
      reader.at += 1
    }
    reader.at += 1
  }
}
