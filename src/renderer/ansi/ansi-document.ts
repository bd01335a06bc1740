import {
  ANSI_TOKEN_SOURCE,
  type AnsiLine,
  type AnsiStyle,
  applySgr,
  PLAIN_STYLE,
  parseAnsi,
} from './parse-ansi'

/** Lines between style checkpoints: rendering any window re-parses at most this many extra lines. */
export const CHECKPOINT_LINES = 256

/** Output indexed by line, parsed into styled segments only for the lines on screen. */
export interface AnsiDocument {
  lineCount: number
  lines(first: number, end: number): AnsiLine[]
}

/**
 * One pass records where each line starts and the style in effect every CHECKPOINT_LINES lines,
 * so a 4 MiB log of two million short lines costs an index, not two million parsed objects.
 */
export function createAnsiDocument(text: string): AnsiDocument {
  const starts: number[] = [0]
  const checkpoints: AnsiStyle[] = [PLAIN_STYLE]
  const token = new RegExp(ANSI_TOKEN_SOURCE, 'g')
  let style = PLAIN_STYLE
  for (let match = token.exec(text); match !== null; match = token.exec(text)) {
    const value = match[0]
    if (value === '\n' || value === '\r\n') {
      starts.push(token.lastIndex)
      if ((starts.length - 1) % CHECKPOINT_LINES === 0) checkpoints.push(style)
    } else if (value === '\r') {
      // The line is rewritten from here (parseAnsi drops what came before), so it starts here.
      starts[starts.length - 1] = token.lastIndex
      if ((starts.length - 1) % CHECKPOINT_LINES === 0) checkpoints[checkpoints.length - 1] = style
    } else if (match[2] === 'm') {
      style = applySgr(style, match[1] ?? '')
    }
  }
  // A final newline ends the last line; it does not open an empty one.
  const lineCount = starts.length > 1 && text.endsWith('\n') ? starts.length - 1 : starts.length

  return {
    lineCount,
    lines(first, end) {
      const from = Math.max(0, Math.min(first, lineCount))
      const to = Math.max(from, Math.min(end, lineCount))
      if (from === to) return []
      const checkpoint = Math.floor(from / CHECKPOINT_LINES)
      const startLine = checkpoint * CHECKPOINT_LINES
      const endOffset = to < starts.length ? (starts[to] ?? text.length) : text.length
      const parsed = parseAnsi(
        text.slice(starts[startLine] ?? 0, endOffset),
        checkpoints[checkpoint] ?? PLAIN_STYLE,
      )
      return parsed.slice(from - startLine, to - startLine)
    },
  }
}
