import type { WordChar } from './word-chars'

/** More words than this from one word, and it is judged as only known at run time. */
export const MAX_BRACE_WORDS = 256
/** A sequence longer than this is not expanded (`{1..100000}`). */
const MAX_SEQUENCE = 256

export type BraceResult = { words: WordChar[][] } | { problem: string }

/**
 * bash's brace expansion (issue 21.5), done before any other expansion: the first unquoted `{`
 * whose matching `}` encloses a top-level `,` or a sequence `x..y[..step]` splits the word into
 * preamble, alternatives and postscript, each alternative and the postscript expanded in turn;
 * a `{` that is neither (`{a}`, `{}`) stays literal and the search goes on after it. Sequences of
 * integers (zero-padded when an end is) and of letters of one case; anything else bash reads
 * differently from zsh, or too large, is a problem, so the word is not judged as static.
 */
export function expandBraces(chars: readonly WordChar[]): BraceResult {
  try {
    const words = expand(chars, 0)
    if (typeof words === 'string') return { problem: words }
    // bash drops a word brace expansion left empty (`{,}`), zsh passes it on.
    if (words.some((word) => word.length === 0))
      return { problem: 'makes an empty word, which bash and zsh treat differently' }
    return { words }
  } catch (error) {
    if (error instanceof BraceProblem) return { problem: error.message }
    throw error
  }
}

class BraceProblem extends Error {}

function expand(chars: readonly WordChar[], from: number): WordChar[][] | string {
  for (let open = from; open < chars.length; open += 1) {
    if (!isUnquoted(chars[open], '{')) continue
    const found = braceBody(chars, open)
    if (found === null) continue
    const preamble = chars.slice(0, open)
    const postscripts = expand(chars.slice(found.close + 1), 0)
    if (typeof postscripts === 'string') return postscripts
    const middles: WordChar[][] = []
    for (const alternative of found.alternatives) {
      const expanded = expand(alternative, 0)
      if (typeof expanded === 'string') return expanded
      middles.push(...expanded)
    }
    const words: WordChar[][] = []
    for (const middle of middles)
      for (const post of postscripts) {
        words.push([...preamble, ...middle, ...post])
        if (words.length > MAX_BRACE_WORDS) return `it makes more than ${MAX_BRACE_WORDS} words`
      }
    return words
  }
  return [[...chars]]
}

/** The alternatives of the brace at `open`, or null when it is not a brace expansion there. */
function braceBody(
  chars: readonly WordChar[],
  open: number,
): { close: number; alternatives: WordChar[][] } | null {
  let depth = 0
  const commas: number[] = []
  for (let at = open + 1; at < chars.length; at += 1) {
    const char = chars[at]
    if (isUnquoted(char, '{')) depth += 1
    else if (isUnquoted(char, '}')) {
      if (depth === 0) {
        const inner = chars.slice(open + 1, at)
        if (commas.length > 0) {
          const alternatives: WordChar[][] = []
          let start = open + 1
          for (const comma of [...commas, at]) {
            alternatives.push(chars.slice(start, comma))
            start = comma + 1
          }
          return { close: at, alternatives }
        }
        const sequence = readSequence(inner)
        if (typeof sequence === 'string') throw new BraceProblem(sequence)
        return sequence === null ? null : { close: at, alternatives: sequence }
      }
      depth -= 1
    } else if (depth === 0 && isUnquoted(char, ',')) commas.push(at)
  }
  return null
}

const INTEGERS = /^(-?\d+)\.\.(-?\d+)(?:\.\.([1-9]\d*))?$/
const LETTERS = /^(?:([a-z])\.\.([a-z])|([A-Z])\.\.([A-Z]))$/

/**
 * `{1..5}`, `{05..1}`, `{1..10..3}`, `{a..e}`: the sequences bash and zsh expand alike. Null when the
 * body is no sequence for either shell (`{a}`); a problem when one of them would expand it
 * differently (`{+1..3}`, `{a..e..2}` and `{1..a}` differ between them) or it is too long.
 */
function readSequence(inner: readonly WordChar[]): WordChar[][] | null | string {
  const text = inner.map((char) => char.c).join('')
  if (!text.includes('..')) return null
  if (inner.some((char) => char.q)) return `{${text}} is read differently by bash and zsh`
  const integers = INTEGERS.exec(text)
  const letters = LETTERS.exec(text)
  if (!integers && !letters) return `{${text}} is read differently by bash and zsh`
  const from = integers ? Number(integers[1]) : (letters?.[1] ?? letters?.[3] ?? '').charCodeAt(0)
  const to = integers ? Number(integers[2]) : (letters?.[2] ?? letters?.[4] ?? '').charCodeAt(0)
  const step = Number(integers?.[3] ?? 1)
  if (Math.abs(to - from) / step > MAX_SEQUENCE) return `{${text}} makes more than ${MAX_SEQUENCE} words`
  const start = integers?.[1] ?? ''
  const end = integers?.[2] ?? ''
  const padded = /^-?0\d/.test(start) || /^-?0\d/.test(end)
  if (padded && (start.startsWith('-') || end.startsWith('-'))) return `{${text}} pads negative numbers`
  const width = Math.max(start.length, end.length)
  const values: string[] = []
  for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step) {
    if (!integers) values.push(String.fromCharCode(value))
    else values.push(padded ? String(value).padStart(width, '0') : String(value))
  }
  return values.map(literalChars)
}

// A sequence's words are quoted: bash quotes what it generates, so they are never braces again.
function literalChars(text: string): WordChar[] {
  return Array.from(text, (c) => ({ c, q: true }))
}

function isUnquoted(char: WordChar | undefined, value: string): boolean {
  return char !== undefined && !char.q && char.c === value
}
