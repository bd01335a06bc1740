import type { Word } from 'unbash'
import { expandBraces } from './brace-expansion'
import type { WordGlob } from './command-analysis'
import { globPattern, literalPrefix, readWordChars, type WordChar } from './word-chars'
import type { WordReading } from './word-value'

/** One word bash will pass, with how a shell may glob it. */
export interface ShapedWord {
  /** null: expanded at run time. */
  value: string | null
  glob: WordGlob | null
  /** It came out of a brace expansion. */
  braces: boolean
}

/**
 * The words one source word becomes before globbing: itself, or what brace expansion makes of it
 * (`{a,b}.txt` is `a.txt b.txt`), each with its glob pattern and the literal text every match
 * starts with. `prefix` is text put before the word (an assignment's `name=`, unquoted).
 */
export function shapeWord(
  word: Word,
  reading: WordReading,
  prefix = '',
): ShapedWord[] | { dynamicPart: string } {
  if (reading.value === null) return { dynamicPart: reading.dynamicPart ?? word.text }
  const value = `${prefix}${reading.value}`
  // Most words (`git`, `-la`, `src/main.ts`) have nothing to unquote, expand or glob: the slow path
  // below would build one object per character to find that out.
  if (PLAIN_WORD.test(word.text) && PLAIN_WORD.test(prefix) && value === `${prefix}${word.text}`)
    return [{ value, glob: null, braces: false }]
  const read = readWordChars(word)
  const chars: WordChar[] | null =
    read && (prefix === '' ? read : [...Array.from(prefix, (c) => ({ c, q: false })), ...read])
  // Our reading of the quotes must give the parser's value, or the words judged are not bash's.
  if (chars === null) return { dynamicPart: word.text }
  const hasBrace = chars.some((char) => !char.q && char.c === '{')
  if (!hasBrace) {
    if (!spells(chars, value)) return { dynamicPart: word.text }
    return [{ value, glob: globOf(chars), braces: false }]
  }
  const expanded = expandBraces(chars)
  if ('problem' in expanded) return { dynamicPart: `${word.text} (brace expansion: ${expanded.problem})` }
  const made = expanded.words.map((chars) => chars.map((char) => char.c).join(''))
  const braces = made.length !== 1 || made[0] !== value
  return expanded.words.map((chars, index) => ({ value: made[index] as string, glob: globOf(chars), braces }))
}

// No quote, escape, expansion, brace, tilde or character bash or zsh could read as a pattern.
const PLAIN_WORD = /^[A-Za-z0-9_.,:/=%+@-]*$/

function spells(chars: readonly WordChar[], value: string): boolean {
  let at = 0
  for (const char of chars) {
    if (!value.startsWith(char.c, at)) return false
    at += char.c.length
  }
  return at === value.length
}

function globOf(chars: readonly WordChar[]): WordGlob | null {
  const pattern = globPattern(chars)
  if (pattern === null) return null
  const bash = chars.some(
    (char, index) =>
      !char.q &&
      (char.c === '*' ||
        char.c === '?' ||
        (char.c === '[' && chars.slice(index + 2).some((c) => c.c === ']'))),
  )
  // zsh's `x~y` excludes only inside a word that is a pattern already: `HEAD~1` is text there.
  const zsh = chars.some((char) => !char.q && (char.c === '^' || char.c === '#'))
  return { pattern, prefix: literalPrefix(chars), bash, zsh }
}
