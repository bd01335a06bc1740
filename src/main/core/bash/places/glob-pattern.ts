import type { GlobSemantics } from './shell-globbing'

/**
 * One path segment of a glob (no `/`), compiled the way bash's and zsh's matchers read it: `*`,
 * `?`, brackets with `!`/`^`, ranges, `[:class:]`, `[=c=]` and `[.c.]`, backslash escapes, bash's
 * extglob groups and zsh's `^`, `~`, `#`, `##` when those options may be on. The input is the
 * pattern with every quoted character backslash-escaped (see analysis/word-chars).
 *
 * A name matches when any reading the semantics allow matches (UTF-8 characters or bytes, either
 * case): the verdict must see every file the shell could pick. Null: a form this reading does not
 * follow, so the matches are unknown.
 */
export type SegmentMatcher = (name: string) => boolean

// Compiled matchers by semantics (one object per session's options) and segment; a bounded memo,
// since an agent repeats its globs (`src/*.ts`) and compiling is most of a glob's cost.
const COMPILED = new WeakMap<GlobSemantics, Map<string, SegmentMatcher | null>>()
const MAX_COMPILED_SEGMENTS = 1_000

export function compileSegment(segment: string, semantics: GlobSemantics): SegmentMatcher | null {
  let compiled = COMPILED.get(semantics)
  if (!compiled) {
    compiled = new Map()
    COMPILED.set(semantics, compiled)
  }
  const known = compiled.get(segment)
  if (known !== undefined) return known
  const matcher = compileSegmentOnce(segment, semantics)
  if (compiled.size >= MAX_COMPILED_SEGMENTS) compiled.clear()
  compiled.set(segment, matcher)
  return matcher
}

function compileSegmentOnce(segment: string, semantics: GlobSemantics): SegmentMatcher | null {
  const regexes: RegExp[] = []
  for (const characters of semantics.characters) {
    for (const cases of semantics.cases) {
      const utf8 = characters === 'utf8'
      const source = new Translator(segment, semantics, utf8, cases === 'fold-literals').translate()
      if (source === null) return null
      try {
        regexes.push(new RegExp(`^(?:${source})$`, `s${cases === 'fold-all' ? 'i' : ''}${utf8 ? 'u' : ''}`))
      } catch {
        return null
      }
    }
  }
  const hidden = !semantics.dotglob && !startsWithExplicitDot(segment, semantics)
  return (name) => {
    if (hidden && name.startsWith('.')) return false
    for (const regex of regexes) {
      const subject = regex.unicode ? name : latin1Bytes(name)
      if (regex.test(subject)) return true
    }
    return false
  }
}

/** Whether the segment holds a character bash or zsh may read as a pattern. */
export function hasGlobOperator(segment: string, semantics: GlobSemantics): boolean {
  for (let at = 0; at < segment.length; at += 1) {
    const char = segment[at] as string
    if (char === '\\') at += 1
    else if (char === '*' || char === '?' || char === '[') return true
    else if (semantics.extglob && '@!+'.includes(char) && segment[at + 1] === '(') return true
    // zsh's `~` excludes only in a word that is a pattern already, so it alone makes none.
    else if (semantics.zshExtended && (char === '^' || char === '#')) return true
  }
  return false
}

/**
 * A leading dot is matched only by a dot written there (or dotglob): `.*`, `\.env`, and bash's
 * `@(.env|x)`, whose alternatives may start with one.
 */
function startsWithExplicitDot(segment: string, semantics: GlobSemantics): boolean {
  if (segment.startsWith('.') || segment.startsWith('\\.')) return true
  if (!semantics.extglob) return false
  // bash lets extglob groups at the start match a leading dot when an alternative writes one
  // (`@(.env|x)`), also after groups that may match nothing (`?(a)@(.env|x)`); never `!(…)`.
  let rest = segment
  while (/^[?*+@]\(/.test(rest)) {
    const group = leadingGroup(rest)
    if (group.alternatives.some((alternative) => /^\\?\./.test(alternative))) return true
    const mayBeEmpty = rest[0] === '?' || rest[0] === '*' || group.alternatives.includes('')
    if (!mayBeEmpty) return false
    rest = rest.slice(group.length)
  }
  return rest.startsWith('.') || rest.startsWith('\\.')
}

/** The alternatives of the extglob group a segment starts with, and the group's length. */
function leadingGroup(segment: string): { alternatives: string[]; length: number } {
  const alternatives: string[] = []
  let depth = 0
  let current = ''
  for (let at = 2; at < segment.length; at += 1) {
    const char = segment[at] as string
    if (char === '\\') {
      current += char + (segment[at + 1] ?? '')
      at += 1
    } else if (char === ')' && depth === 0) {
      alternatives.push(current)
      return { alternatives, length: at + 1 }
    } else if (char === '|' && depth === 0) {
      alternatives.push(current)
      current = ''
    } else {
      if (char === '(') depth += 1
      if (char === ')') depth -= 1
      current += char
    }
  }
  alternatives.push(current)
  return { alternatives, length: segment.length }
}

/** The name's UTF-8 bytes, one character each: what the C locale's matcher sees. */
function latin1Bytes(name: string): string {
  // An ASCII name is its own bytes.
  for (let at = 0; at < name.length; at += 1)
    if (name.charCodeAt(at) > 0x7f) return Buffer.from(name, 'utf8').toString('latin1')
  return name
}

const CLASSES: Record<string, { utf8: string; bytes: string }> = {
  alpha: { utf8: '\\p{L}', bytes: 'A-Za-z' },
  upper: { utf8: '\\p{Lu}', bytes: 'A-Z' },
  lower: { utf8: '\\p{Ll}', bytes: 'a-z' },
  digit: { utf8: '0-9', bytes: '0-9' },
  xdigit: { utf8: '0-9A-Fa-f', bytes: '0-9A-Fa-f' },
  alnum: { utf8: '\\p{L}\\p{Nd}', bytes: 'A-Za-z0-9' },
  word: { utf8: '\\p{L}\\p{Nd}_', bytes: 'A-Za-z0-9_' },
  space: { utf8: '\\s', bytes: ' \\t\\n\\r\\f\\v' },
  blank: { utf8: ' \\t', bytes: ' \\t' },
  punct: { utf8: '\\p{P}\\p{S}', bytes: '!-\\/:-@\\[-`{-~' },
  cntrl: { utf8: '\\p{Cc}', bytes: '\\x00-\\x1f\\x7f' },
  print: { utf8: '\\P{C}', bytes: ' -~' },
  graph: { utf8: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}', bytes: '!-~' },
}

class Translator {
  private at = 0
  private depth = 0

  constructor(
    private readonly text: string,
    private readonly semantics: GlobSemantics,
    private readonly utf8: boolean,
    /** zsh's NO_CASE_GLOB: a literal character matches either case, a bracket stays exact. */
    private readonly foldLiterals: boolean,
  ) {}

  translate(): string | null {
    try {
      const source = this.sequence(null)
      return this.at === this.text.length ? source : null
    } catch {
      return null
    }
  }

  /**
   * Atoms until the end, or until `|` / `)` inside a group. zsh's `x~y` (lowest precedence: the
   * whole name must not match y) and `^x` (from here on, the rest must not match x) become
   * lookaheads; `#` and `##` repeat the atom before them.
   */
  private sequence(closer: string | null, stopAtTilde = false): string {
    let source = ''
    let previous = ''
    const zsh = this.semantics.zshExtended
    while (this.at < this.text.length) {
      const char = this.text[this.at] as string
      if (closer !== null && (char === '|' || char === ')')) break
      if (zsh && char === '~' && this.at > 0 && closer === null) {
        if (stopAtTilde) break
        this.at += 1
        const exclusion = this.sequence(null, true)
        source = `(?!(?:${exclusion})$)(?:${source}${previous})`
        previous = ''
        continue
      }
      if (zsh && char === '^') {
        this.at += 1
        const rest = this.sequence(closer, true)
        // Inside a group the rest is not the end of the name: any text, as a superset.
        source += closer === null ? `${previous}(?!(?:${rest})$)[^]*` : `${previous}[^]*`
        previous = ''
        continue
      }
      if (zsh && char === '#' && previous !== '') {
        const twice = this.text[this.at + 1] === '#'
        this.at += twice ? 2 : 1
        previous = `(?:${previous})${twice ? '+' : '*'}`
        continue
      }
      source += previous
      previous = this.atom()
    }
    return source + previous
  }

  private atom(): string {
    const char = this.text[this.at] as string
    const next = this.text[this.at + 1]
    if (this.semantics.extglob && '?*+@!'.includes(char) && next === '(') return this.extglobGroup(char)
    this.at += 1
    if (char === '\\') {
      const escaped = this.text.codePointAt(this.at)
      if (escaped === undefined) return '\\\\'
      this.at += escaped > 0xffff ? 2 : 1
      return this.literal(String.fromCodePoint(escaped))
    }
    if (char === '*') return '[^]*'
    if (char === '?') return '[^]'
    if (char === '[') return this.bracket() ?? '\\['
    const point = this.text.codePointAt(this.at - 1) as number
    if (point > 0xffff) this.at += 1
    return this.literal(String.fromCodePoint(point))
  }

  private literal(char: string): string {
    if (!this.foldLiterals) return literal(char, this.utf8)
    const variants = [...new Set([char, char.toLowerCase(), char.toUpperCase()])]
    if (variants.length === 1) return literal(char, this.utf8)
    return `(?:${variants.map((variant) => literal(variant, this.utf8)).join('|')})`
  }

  /** `@(a|b)` once, `?(…)` at most once, `*(…)` any times, `+(…)` once or more, `!(…)` anything else. */
  private extglobGroup(kind: string): string {
    this.at += 2
    this.depth += 1
    const alternatives: string[] = []
    for (;;) {
      alternatives.push(this.sequence(')'))
      const char = this.text[this.at]
      this.at += 1
      if (char === ')') break
      if (char !== '|') throw new Error('an extglob group without its )')
    }
    this.depth -= 1
    const group = `(?:${alternatives.join('|')})`
    if (kind === '@') return group
    if (kind === '?') return `${group}?`
    if (kind === '*') return `${group}*`
    if (kind === '+') return `${group}+`
    // !(p) at the end of the segment: any rest that is not one of the alternatives. Elsewhere the
    // rule is "some split where this part is not p", which a regex does not say: any text, a superset.
    const last = this.depth === 0 && this.at === this.text.length
    return last ? `(?:(?!${group}$)[^]*)` : '[^]*'
  }

  /** A bracket expression, or null when `[` has no closing `]` (then it is a literal `[`). */
  private bracket(): string | null {
    const start = this.at
    let negated = false
    if (this.text[this.at] === '!' || this.text[this.at] === '^') {
      negated = true
      this.at += 1
    }
    const items: string[] = []
    let first = true
    for (;;) {
      const char = this.text[this.at]
      if (char === undefined) {
        this.at = start
        return null
      }
      if (char === ']' && !first) {
        this.at += 1
        break
      }
      first = false
      if (char === '[' && ':='.includes(this.text[this.at + 1] ?? '')) {
        const kind = this.text[this.at + 1] as string
        items.push(this.namedItem(kind, this.namedForm(kind)))
        continue
      }
      // A collating symbol `[.x.]` is a character, and may end a range either side (`[a-[.e.]]`).
      const low = this.rangeEnd()
      if (
        this.text[this.at] === '-' &&
        this.text[this.at + 1] !== ']' &&
        this.text[this.at + 1] !== undefined
      ) {
        this.at += 1
        if (this.text[this.at] === '[' && ':='.includes(this.text[this.at + 1] ?? ''))
          throw new Error('a class or an equivalence class as the end of a range')
        const high = this.rangeEnd()
        items.push(this.range(low, high))
      } else items.push(classChar(low, this.utf8))
    }
    const body = items.join('')
    if (body === '') return negated ? '[^]' : '[^\\s\\S]'
    return negated ? `[^${body}]` : `[${body}]`
  }

  /** The name inside `[:name:]`, `[=x=]` or `[.x.]`, with the position moved past the form. */
  private namedForm(kind: string): string {
    const close = this.text.indexOf(`${kind}]`, this.at + 2)
    if (close < 0) throw new Error('an unfinished [: :] form')
    const name = this.text.slice(this.at + 2, close)
    this.at = close + 2
    return name
  }

  /** One character of a bracket: itself, escaped, or a collating symbol `[.x.]`. */
  private rangeEnd(): string {
    if (this.text[this.at] !== '[' || this.text[this.at + 1] !== '.') return this.bracketChar()
    const name = this.namedForm('.')
    if ([...name].length !== 1) throw new Error(`the form [.${name}.]`)
    return name
  }

  private bracketChar(): string {
    if (this.text[this.at] === '\\' && this.at + 1 < this.text.length) this.at += 1
    const point = this.text.codePointAt(this.at) as number
    this.at += point > 0xffff ? 2 : 1
    return String.fromCodePoint(point)
  }

  private range(low: string, high: string): string {
    if (low > high) return ''
    const exact = `${classChar(low, this.utf8)}-${classChar(high, this.utf8)}`
    // In a collating locale [a-z] can take upper-case letters too: both cases, as a superset.
    if (!this.semantics.localeRanges || !/[A-Za-z]/.test(low + high)) return exact
    return `${exact}${classChar(low.toUpperCase(), this.utf8)}-${classChar(high.toUpperCase(), this.utf8)}${classChar(low.toLowerCase(), this.utf8)}-${classChar(high.toLowerCase(), this.utf8)}`
  }

  private namedItem(kind: string, name: string): string {
    if (kind === ':') {
      const found = CLASSES[name]
      if (!found) throw new Error(`the class [:${name}:]`)
      if (this.utf8) return found.utf8
      return found.bytes
    }
    // [=e=] is every character that sorts as e: é, è… in most locales. As a superset: e and every
    // letter whose decomposition starts with it.
    if ([...name].length !== 1) throw new Error(`the form [${kind}${name}${kind}]`)
    if (kind === '.' || !this.utf8 || !/\p{L}/u.test(name)) return classChar(name, this.utf8)
    return `${classChar(name, true)}${EQUIVALENTS(name)}`
  }
}

/** Letters whose canonical decomposition starts with `base` (é for e), from Latin-1 to Latin Extended-B. */
function EQUIVALENTS(base: string): string {
  let found = ''
  for (let point = 0xc0; point < 0x250; point += 1) {
    const char = String.fromCodePoint(point)
    if (char.normalize('NFD')[0]?.toLowerCase() === base.toLowerCase()) found += classChar(char, true)
  }
  return found
}

function literal(char: string, utf8: boolean): string {
  if (!utf8 && char.charCodeAt(0) > 0x7f)
    return latin1Bytes(char).replace(/[\s\S]/g, (byte) => hexEscape(byte))
  return /[\\^$.*+?()[\]{}|]/.test(char) ? `\\${char}` : char
}

function classChar(char: string, utf8: boolean): string {
  if (!utf8 && char.charCodeAt(0) > 0x7f)
    return latin1Bytes(char).replace(/[\s\S]/g, (byte) => hexEscape(byte))
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char
}

function hexEscape(byte: string): string {
  return `\\x${byte.charCodeAt(0).toString(16).padStart(2, '0')}`
}
