import type { Word, WordPart } from 'unbash'
import { literalArithmeticValue } from './literal-arithmetic'

/** One character of a word after quote removal, and whether it was quoted (so never special). */
export interface WordChar {
  c: string
  q: boolean
}

/**
 * A static word as characters that remember their quoting, the form brace expansion and globbing
 * work on: `"-"*` is a quoted `-` then an unquoted `*`; `\{a,b}` has no brace expansion. Null when
 * the word holds anything expanded at run time (the caller has said why already).
 */
export function readWordChars(word: Word): WordChar[] | null {
  if (!word.parts) return lexUnquoted(word.text, true)
  const chars: WordChar[] = []
  for (const part of word.parts) {
    const read = partChars(part)
    if (read === null) return null
    chars.push(...read)
  }
  return chars
}

function partChars(part: WordPart): WordChar[] | null {
  switch (part.type) {
    case 'Literal':
    case 'Glob':
      return lexUnquoted(part.text, true)
    // Its raw text holds its quotes too; a `$` there is an expansion we do not read here.
    case 'BraceExpansion':
      return lexUnquoted(part.text, false)
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      return quoted(part.value)
    case 'DoubleQuoted': {
      const chars: WordChar[] = []
      for (const inner of part.parts) {
        const value = inner.type === 'Literal' ? inner.value : arithmeticValue(inner)
        if (value === null) return null
        chars.push(...quoted(value))
      }
      return chars
    }
    // A literal `$((1 + 2))` is its number, which no glob or brace expansion touches.
    case 'ArithmeticExpansion': {
      const value = arithmeticValue(part)
      return value === null ? null : quoted(value)
    }
    default:
      return null
  }
}

/** The value of a `$(( … ))` with only literals in it; null for any other part. */
export function arithmeticValue(part: WordPart): string | null {
  return part.type === 'ArithmeticExpansion' ? literalArithmeticValue(part.expression) : null
}

function quoted(text: string): WordChar[] {
  return Array.from(text, (c) => ({ c, q: true }))
}

/**
 * Source text outside quotes: a backslash quotes the next character (a backslash-newline is a line
 * continuation, nothing); quotes inside a brace expansion's text are read here too. A `$` or a
 * backquote the parser left in a literal is literal (`a$`); inside a brace expansion's text it
 * makes the word dynamic.
 */
function lexUnquoted(text: string, dollarIsLiteral: boolean): WordChar[] | null {
  const chars: WordChar[] = []
  for (let at = 0; at < text.length; ) {
    const point = text.codePointAt(at) as number
    const char = String.fromCodePoint(point)
    if (char === '\\') {
      const next = text.codePointAt(at + 1)
      if (next === undefined) return null
      const escaped = String.fromCodePoint(next)
      if (escaped !== '\n') chars.push({ c: escaped, q: true })
      at += 1 + escaped.length
      continue
    }
    if (char === "'") {
      const close = text.indexOf("'", at + 1)
      if (close < 0) return null
      chars.push(...quoted(text.slice(at + 1, close)))
      at = close + 1
      continue
    }
    if (char === '"') {
      const close = text.indexOf('"', at + 1)
      const body = close < 0 ? '' : text.slice(at + 1, close)
      if (close < 0 || /[\\$`]/.test(body)) return null
      chars.push(...quoted(body))
      at = close + 1
      continue
    }
    if (!dollarIsLiteral && (char === '$' || char === '`')) return null
    chars.push({ c: char, q: false })
    at += char.length
  }
  return chars
}

// Characters bash or zsh may read as a pattern when unquoted.
const GLOB_CHARS = new Set(['*', '?', '[', ']', '^', '#', '~', '(', ')', '|', '@', '!', '+', '\\'])

/**
 * The glob pattern of a word: every quoted character that a matcher could read as special is
 * backslash-escaped; null when no unquoted character could be a pattern in bash or zsh.
 */
export function globPattern(chars: readonly WordChar[]): string | null {
  let pattern = ''
  let special = false
  chars.forEach((char, index) => {
    // A quoted `/` still separates folders, so it stays as it is.
    if (char.q) {
      pattern += GLOB_CHARS.has(char.c) ? `\\${char.c}` : char.c
      return
    }
    if (char.c === '*' || char.c === '?' || char.c === '[' || char.c === '^' || char.c === '#') special = true
    if ('@!+'.includes(char.c) && chars[index + 1]?.c === '(' && !chars[index + 1]?.q) special = true
    pattern += char.c
  })
  return special ? pattern : null
}

/** The text before the first unquoted pattern character: what every word the glob makes starts with. */
export function literalPrefix(chars: readonly WordChar[]): string {
  let prefix = ''
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] as WordChar
    if (!char.q && '*?[^'.includes(char.c)) break
    // zsh's `x#` repeats x zero or more times, so x itself may be absent.
    if (!char.q && char.c === '#') return prefix.slice(0, -1)
    if (!char.q && char.c === '~' && index > 0) break
    if (!char.q && '@!+'.includes(char.c) && chars[index + 1]?.c === '(') break
    prefix += char.c
  }
  return prefix
}
