/** A half-open range of source offsets that a walked node accounts for. */
export type SourceSpan = readonly [start: number, end: number]

// Text bash may legally have between the words we walked: blanks, command separators and pipes,
// line continuations and comments.
const SEPARATOR_TEXT = /^(?:[ \t\r\n;&|]|\\\n)*$/

/**
 * unbash recovers from some syntax errors without reporting them (`ls | echo ( | wc` loses the
 * `(`), so before trusting the walk we check that every character of the line belongs to a node
 * we saw or is separator text. Returns the first stray text, or null when the walk covers it all.
 */
export function findUncoveredText(source: string, spans: SourceSpan[]): string | null {
  const sorted = [...spans].sort((a, b) => a[0] - b[0])
  let cursor = 0
  for (const [start, end] of sorted) {
    if (start > cursor) {
      const stray = strayText(source.slice(cursor, start))
      if (stray) return stray
    }
    cursor = Math.max(cursor, end)
  }
  return strayText(source.slice(cursor))
}

function strayText(gap: string): string | null {
  // The usual gap (` `, ` | `, ` && `) holds no comment to take out first.
  if (SEPARATOR_TEXT.test(gap)) return null
  const withoutComments = gap.replace(/(^|[ \t\r\n;&|])#[^\n]*/g, '$1')
  if (SEPARATOR_TEXT.test(withoutComments)) return null
  return withoutComments.trim().slice(0, 40)
}
