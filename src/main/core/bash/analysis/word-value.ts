import type { Word, WordPart } from 'unbash'
import type { WordExpansion } from './command-analysis'
import { arithmeticValue, readWordChars, type WordChar } from './word-chars'

/** What bash will run for one word, after quote removal and backslash processing. */
export interface WordReading {
  /** The word's value; null when any part is expanded at run time. */
  value: string | null
  /** The first part that is expanded at run time (`$(…)`, `$x`, `{a,b}`…), for the reason text. */
  dynamicPart: string | null
  /** The word starts with an unquoted glob, so pathname expansion could yield a name like `-o…`. */
  leadingGlob: boolean
  /** The word holds an unquoted glob anywhere, so it may become several words. */
  glob: boolean
}

// Pathname globs only select existing file names and run nothing, so a word with `*`, `?` or `[…]`
// keeps its pattern as the value; the leading-glob flag lets the policy refuse it where a file named
// like a flag could write (`sort *` with a file called `-o`).
const STATIC_PART_TYPES = new Set(['Literal', 'SingleQuoted', 'AnsiCQuoted', 'Glob'])

export function readWord(word: Word): WordReading {
  const parts = word.parts
  if (!parts) {
    const dynamic = hasZshParameter(word.text) || expandsTildeAfterEquals(word) ? word.text : null
    return dynamic
      ? { value: null, dynamicPart: dynamic, leadingGlob: false, glob: false }
      : { value: word.value, dynamicPart: null, leadingGlob: false, glob: false }
  }
  const dynamicPart = findDynamicPart(parts) ?? (expandsTildeAfterEquals(word) ? word.text : null)
  if (dynamicPart) return { value: null, dynamicPart, leadingGlob: false, glob: false }
  const glob = parts.some((part) => part.type === 'Glob')
  const value = arithmeticFree(word)
  if (value === null) return { value: null, dynamicPart: word.text, leadingGlob: false, glob: false }
  return { value, dynamicPart: null, leadingGlob: parts[0]?.type === 'Glob', glob }
}

/**
 * bash expands a tilde in any argument shaped like an assignment, not only at a word's start:
 * `cat a=~/.gitconfig` reads `a=/home/me/.gitconfig` (a folder named `a=` linked to `/` makes that
 * the person's file), after the first `=` and after each unquoted `:` (`x=a:~/b`), `~user`, `~+`
 * and `~-` included; zsh with MAGIC_EQUAL_SUBST does so after the `=` of any `anything=` word
 * (`--file=~/x`). Only the shell knows the home and its options, so such a word is known only at
 * run time: any unquoted `~` right after an unquoted `=`, or after an unquoted `:` with an
 * unquoted `=` before it. A quoted or escaped tilde (`a='~'`, `a=\~`) stays itself.
 */
function expandsTildeAfterEquals(word: Word): boolean {
  const text = word.text
  const equals = text.indexOf('=')
  if (equals < 0 || text.indexOf('~', equals) < 0) return false
  const chars = readWordChars(word)
  if (chars === null) return false
  let afterEquals = false
  for (let index = 1; index < chars.length; index += 1) {
    const before = chars[index - 1] as WordChar
    const char = chars[index] as WordChar
    if (!before.q && before.c === '=') afterEquals = true
    if (char.q || char.c !== '~' || !afterEquals) continue
    if (!before.q && (before.c === '=' || before.c === ':')) return true
  }
  return false
}

function holdsArithmetic(part: WordPart): boolean {
  return (
    part.type === 'ArithmeticExpansion' || (part.type === 'DoubleQuoted' && part.parts.some(holdsArithmetic))
  )
}

/** The word's value, with each literal `$(( … ))` replaced by its number (the parser keeps the text). */
function arithmeticFree(word: Word): string | null {
  if (!word.parts?.some(holdsArithmetic)) return word.value
  const chars = readWordChars(word)
  return chars ? chars.map((char) => char.c).join('') : null
}

function findDynamicPart(parts: readonly WordPart[]): string | null {
  for (const part of parts) {
    // `$"…"` is looked up in a message catalog chosen by TEXTDOMAIN at run time, so it stays dynamic.
    if (part.type === 'DoubleQuoted') {
      const inner = part.parts.find(
        (child) =>
          (child.type !== 'Literal' && arithmeticValue(child) === null) || hasZshParameter(child.text),
      )
      if (inner) return inner.text
      continue
    }
    if (part.type === 'Literal' && hasZshParameter(part.text)) return part.text
    if (part.type === 'Glob' && part.kind === 'bracket') {
      const inner = findDynamicPart(part.parts)
      if (inner) return inner
      continue
    }
    // `{a,b}` is expanded by the analysis itself (brace-expansion.ts) when nothing in it expands.
    if (part.type === 'BraceExpansion') {
      const inner = part.parts ? findDynamicPart(part.parts) : null
      if (inner) return inner
      if (/[$`]/.test(part.text)) return part.text
      continue
    }
    if (!STATIC_PART_TYPES.has(part.type) && arithmeticValue(part) === null) return part.text
    if (part.type === 'AnsiCQuoted' && UNDECODED_ANSI_C.test(part.text)) return part.text
    if (part.type === 'AnsiCQuoted' && hasLocaleDependentEscape(part.text)) return part.text
    if (part.type === 'AnsiCQuoted' && hasNonUtf8Bytes(part.text)) return part.text
  }
  return null
}

// bash 5.2 reads `\x{2f}` as `/` (any number of hex digits, an optional `}`); the parser keeps it
// literal, so `cat $'\x{2f}proc/self/environ'` would be judged as a file in the workspace.
const UNDECODED_ANSI_C = /\\x\{/

/**
 * `\uHHHH` and `\UHHHHHHHH` name a character, and bash writes one above U+007F in the run's
 * locale: UTF-8 bytes under `C.UTF-8`, the escape itself (`\u00E9`) under `C`/POSIX, which is
 * what a run without LANG gets. The word bash passes depends on the environment, not the text, so
 * such a word is dynamic. ASCII code points decode the same in every locale.
 */
function hasLocaleDependentEscape(raw: string): boolean {
  for (let at = 0; at < raw.length; at += 1) {
    if (raw[at] !== '\\') continue
    const kind = raw[at + 1]
    at += 1
    if (kind !== 'u' && kind !== 'U') continue
    const digits = /^[0-9a-fA-F]+/.exec(raw.slice(at + 1, at + 1 + (kind === 'u' ? 4 : 8)))?.[0] ?? ''
    if (digits !== '' && Number.parseInt(digits, 16) > 0x7f) return true
  }
  return false
}

/**
 * `$'\xff'` and `$'\377'` are the byte 0xff, which is no UTF-8 text: bash passes that byte, and
 * a name made of it is not the one the parser's string holds (a committed symlink so named led
 * to ~/.ssh/id_rsa, judged as a plain file in the workspace). Bytes that together spell UTF-8
 * (`$'\xc3\xa9'`, é) read the same both ways; any other is dynamic.
 */
function hasNonUtf8Bytes(raw: string): boolean {
  // Runs of escaped bytes above 0x7f: anything else between them (text, a low escape) ends a run,
  // and each run must spell UTF-8 by itself.
  let run: number[] = []
  for (let at = 0; at < raw.length; at += 1) {
    let value: number | null = null
    if (raw[at] === '\\') {
      const rest = raw.slice(at + 1, at + 4)
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest)
      const octal = hex ? null : /^[0-7]{1,3}/.exec(rest)
      if (hex) value = Number.parseInt(hex[1]!, 16)
      else if (octal) value = Number.parseInt(octal[0], 8) & 0xff
      at += hex ? hex[0].length : octal ? octal[0].length : 1
    }
    if (value !== null && value > 0x7f) run.push(value)
    else if (run.length > 0) {
      if (!isUtf8(run)) return true
      run = []
    }
  }
  return run.length > 0 && !isUtf8(run)
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

function isUtf8(bytes: number[]): boolean {
  try {
    STRICT_UTF8.decode(Uint8Array.from(bytes))
    return true
  } catch {
    return false
  }
}

/**
 * `$~HOME`, `$=x`, `$^x`, `$+x` are literal text to bash but parameter expansions to zsh, which
 * sessions may run: `cat $~HOME/.ssh/id_rsa` reads the key there. Such a word is dynamic.
 */
function hasZshParameter(raw: string): boolean {
  for (let at = 0; at < raw.length; at += 1) {
    if (raw[at] === '\\') at += 1
    else if (raw[at] === '$' && '~=^+'.includes(raw[at + 1] ?? ' ')) return true
  }
  return false
}

/** Here-doc bodies expand `$…` and `` `…` `` unless the delimiter was quoted. */
export function findDynamicHeredocPart(parts: readonly WordPart[] | undefined): string | null {
  if (!parts) return null
  const dynamic = parts.find((part) => part.type !== 'Literal')
  return dynamic ? dynamic.text : null
}

// `$NAME`, `${NAME}`, a special parameter, or `${!PREFIX*}` / `${!PREFIX@}` (the names that start so).
const PLAIN_PARAMETER =
  /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9?#$@*!-]|\{[A-Za-z_][A-Za-z0-9_]*\}|\{![A-Za-z_][A-Za-z0-9_]*[*@]\})$/

/** Every run-time part of a word, inside double quotes too, each classed for the policy. */
export function listWordExpansions(word: Word): WordExpansion[] {
  const found: WordExpansion[] = []
  const visit = (parts: readonly WordPart[]) => {
    for (const part of parts) {
      if (part.type === 'DoubleQuoted') visit(part.parts)
      else if (part.type === 'Glob' && part.kind === 'bracket') visit(part.parts)
      else if (part.type === 'BraceExpansion') visit(part.parts ?? [])
      else if (STATIC_PART_TYPES.has(part.type)) continue
      else if (
        (part.type === 'SimpleExpansion' || part.type === 'ParameterExpansion') &&
        PLAIN_PARAMETER.test(part.text)
      )
        found.push({ kind: 'parameter', text: part.text })
      else if (
        part.type === 'CommandExpansion' &&
        part.text.startsWith('$(') &&
        !part.text.startsWith('$((') &&
        part.text.endsWith(')')
      )
        found.push({ kind: 'command', text: part.text, inner: part.text.slice(2, -1) })
      else found.push({ kind: 'other', text: part.text })
    }
  }
  if (word.parts) visit(word.parts)
  // `a=~/x` is the home folder's path, as `$HOME/x` would be: a value, never a flag.
  if (expandsTildeAfterEquals(word)) found.push({ kind: 'parameter', text: word.text })
  return found
}
