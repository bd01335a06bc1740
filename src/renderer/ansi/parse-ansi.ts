/**
 * ANSI SGR (colour and weight) escapes → styled segments, one array per line. Every other escape
 * (cursor moves, OSC titles and hyperlinks, charset switches) and stray control characters are
 * dropped, so program output can never drive the page; the result is plain data rendered as text.
 */

export type AnsiColor = { kind: 'palette'; index: number } | { kind: 'rgb'; r: number; g: number; b: number }

export interface AnsiStyle {
  fg: AnsiColor | null
  bg: AnsiColor | null
  bold: boolean
  dim: boolean
  italic: boolean
  underline: boolean
  inverse: boolean
  strike: boolean
}

export interface AnsiSegment {
  text: string
  style: AnsiStyle
}

export type AnsiLine = AnsiSegment[]

export const PLAIN_STYLE: AnsiStyle = Object.freeze({
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  strike: false,
})

// CSI (ESC [ params final), OSC (ESC ] … BEL or ST), other two-byte escapes, then C0 controls
// except tab, newline and carriage return (handled as line structure).
export const ANSI_TOKEN_SOURCE =
  /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r\n|\n|\r/
    .source

/** Parses `text` into lines; `initialStyle` is the style in effect where `text` starts (for slices of a document). */
export function parseAnsi(text: string, initialStyle: AnsiStyle = PLAIN_STYLE): AnsiLine[] {
  const TOKEN = new RegExp(ANSI_TOKEN_SOURCE, 'g')
  const lines: AnsiLine[] = []
  let line: AnsiLine = []
  let style: AnsiStyle = initialStyle
  let last = 0
  const push = (chunk: string) => {
    if (chunk.length === 0) return
    const previous = line[line.length - 1]
    if (previous && previous.style === style) previous.text += chunk
    else line.push({ text: chunk, style })
  }
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    push(text.slice(last, match.index))
    last = TOKEN.lastIndex
    const token = match[0]
    if (token === '\n' || token === '\r\n') {
      lines.push(line)
      line = []
    } else if (token === '\r') {
      // A bare carriage return rewrites the line (progress bars): keep only what follows it.
      line = []
    } else if (match[2] === 'm') {
      style = applySgr(style, match[1] ?? '')
    }
  }
  push(text.slice(last))
  if (line.length > 0 || lines.length === 0 || !text.endsWith('\n')) lines.push(line)
  return lines
}

export function applySgr(current: AnsiStyle, params: string): AnsiStyle {
  const codes = params === '' ? [0] : params.split(/[;:]/).map((part) => (part === '' ? 0 : Number(part)))
  let style: AnsiStyle = { ...current }
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0
    if (code === 0) style = { ...PLAIN_STYLE }
    else if (code === 1) style.bold = true
    else if (code === 2) style.dim = true
    else if (code === 3) style.italic = true
    else if (code === 4) style.underline = true
    else if (code === 7) style.inverse = true
    else if (code === 9) style.strike = true
    else if (code === 22) {
      style.bold = false
      style.dim = false
    } else if (code === 23) style.italic = false
    else if (code === 24) style.underline = false
    else if (code === 27) style.inverse = false
    else if (code === 29) style.strike = false
    else if (code >= 30 && code <= 37) style.fg = { kind: 'palette', index: code - 30 }
    else if (code >= 90 && code <= 97) style.fg = { kind: 'palette', index: code - 90 + 8 }
    else if (code === 39) style.fg = null
    else if (code >= 40 && code <= 47) style.bg = { kind: 'palette', index: code - 40 }
    else if (code >= 100 && code <= 107) style.bg = { kind: 'palette', index: code - 100 + 8 }
    else if (code === 49) style.bg = null
    else if (code === 38 || code === 48) {
      const [color, used] = extendedColor(codes, i + 1)
      i += used
      if (color) {
        if (code === 38) style.fg = color
        else style.bg = color
      }
    }
  }
  return style
}

/** 38;5;n and 38;2;r;g;b (and the 48 forms); returns the colour and how many codes it consumed. */
function extendedColor(codes: number[], at: number): [AnsiColor | null, number] {
  const kind = codes[at]
  if (kind === 5) {
    const index = codes[at + 1]
    if (index === undefined || index < 0 || index > 255) return [null, 2]
    return [{ kind: 'palette', index }, 2]
  }
  if (kind === 2) {
    const [r, g, b] = [codes[at + 1], codes[at + 2], codes[at + 3]].map((value) => clampByte(value))
    return [{ kind: 'rgb', r: r ?? 0, g: g ?? 0, b: b ?? 0 }, 4]
  }
  return [null, 1]
}

function clampByte(value: number | undefined): number {
  if (value === undefined || Number.isNaN(value)) return 0
  return Math.max(0, Math.min(255, Math.trunc(value)))
}

/** The plain text of a line, for copying and for accessible names. */
export function lineText(line: AnsiLine): string {
  return line.map((segment) => segment.text).join('')
}
