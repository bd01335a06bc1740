import type { parse } from 'unbash'
import type { AnalyzedCommand, CommandAnalysis } from './command-analysis'

export const JOINED_LINES_REASON =
  'a backslash-newline inside a word: bash joins the lines before it expands anything ($\\⏎NAME is $NAME), which the parser does not'

/**
 * bash deletes `\` + newline before it reads anything else, in double quotes and unquoted here-doc
 * bodies too: `$\⏎GITHUB_TOKEN` is `$GITHUB_TOKEN`, `$GITHUB_\⏎TOKEN` the whole name, and
 * `"$\⏎{Y=…}"` an assignment. The parser keeps the `$` literal or ends the name at the backslash,
 * so the words it reports were not the ones bash expands (fifth review: a secret printed, a
 * command run). Not in single quotes, `$'…'`, quoted here-doc bodies or comments, where bash
 * keeps the two characters.
 *
 * So a line holding a continuation glued to a word (one after a blank, `|`, `&`, `;` or a
 * parenthesis joins nothing) is also read with those continuations deleted, outside the ranges the
 * parse says bash keeps as written; this returns that text, or null when there is none. The two
 * readings must agree, or the line is refused: whichever bash does, it then runs what was judged.
 * (A comment's range is not known to the parse, so a continuation in one is deleted too; the
 * readings then differ, and the line is refused, which is safe.)
 */
export function withLinesJoined(command: string, script: ReturnType<typeof parse>): string | null {
  let kept: Array<[number, number]> | null = null
  const deleted: number[] = []
  for (let at = command.indexOf('\\\n'); at !== -1; at = command.indexOf('\\\n', at + 2)) {
    if (at === 0 || WORD_BOUNDARY.has(command[at - 1]!)) continue
    // `\\⏎` is an escaped backslash and a newline: a continuation only after an even run of them.
    let run = 0
    while (at - run - 1 >= 0 && command[at - run - 1] === '\\') run += 1
    if (run % 2 === 1) continue
    kept ??= keptAsWritten(script)
    if (!kept.some(([from, to]) => at >= from && at < to)) deleted.push(at)
  }
  if (deleted.length === 0) return null
  let text = ''
  let from = 0
  for (const at of deleted) {
    text += command.slice(from, at)
    from = at + 2
  }
  return text + command.slice(from)
}

/** The same simple commands, with the same words, assignments, redirects and run-time parts. */
export function sameReading(ours: readonly AnalyzedCommand[], joined: CommandAnalysis): boolean {
  if (!joined.parsed || joined.commands.length !== ours.length) return false
  const shape = (part: AnalyzedCommand) =>
    JSON.stringify([part.wordValues, part.envAssignments, part.redirects, part.dynamicParts, part.connector])
  return ours.every((part, index) => shape(part) === shape(joined.commands[index]!))
}

/** Source ranges bash reads as written: single-quoted and `$'…'` parts, quoted here-doc bodies. */
function keptAsWritten(script: ReturnType<typeof parse>): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (node === null || typeof node !== 'object') return
    const record = node as { type?: string; pos?: number; end?: number; delimiter?: { quoted?: boolean } }
    if ((record.type === 'SingleQuoted' || record.type === 'AnsiCQuoted') && record.pos !== undefined)
      ranges.push([record.pos, record.end ?? record.pos])
    if (record.type === 'HereDoc' && record.delimiter?.quoted) {
      const body = (node as { body?: { pos: number; end: number } }).body
      if (body) ranges.push([body.pos, body.end])
    }
    for (const value of Object.values(node)) if (typeof value === 'object') visit(value)
    // A word's parts are made when first asked for (a getter), so they are not among its values.
    if (record.type === 'Word') visit((node as { parts?: unknown }).parts)
  }
  visit(script)
  return ranges
}

const WORD_BOUNDARY = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')'])
