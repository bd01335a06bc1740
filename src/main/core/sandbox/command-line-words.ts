/**
 * The words of a command line git hands to `sh -c` (a filter, an alias after `!`, a pager), as
 * the shell splits them: quotes and backslashes removed, and the control operators (`;`, `&`,
 * `|`, parentheses, redirections) ending a word, so `cd x && node 'tools/my clean.js'` yields
 * `tools/my clean.js`. A word that holds an expansion (`$X`, a backquote) names what is known only
 * when the shell runs it; what follows its last expansion, from a slash on, is kept as a word
 * marked `afterExpansion` (`"$(git rev-parse --show-toplevel)/tools/clean.sh"` names
 * `tools/clean.sh` in the work tree, the usual reason to write it so). Leading `~/` is marked so
 * the caller can read it as the home folder, as the shell does for an unquoted tilde.
 */
export interface CommandLineWord {
  text: string
  /** The word began with an unquoted `~/` (or is a lone `~`): `text` is what follows it. */
  fromHome: boolean
  /** `text` is what followed the word's last expansion, from its first slash on, without the slash. */
  afterExpansion?: boolean
}

const OPERATORS = new Set([';', '&', '|', '(', ')', '<', '>', '\n'])

export function commandLineWords(line: string): CommandLineWord[] {
  const words: CommandLineWord[] = []
  let text = ''
  let started = false
  let dynamic = false
  let fromHome = false
  // Where the literal text after the latest expansion starts.
  let literalFrom = 0
  const end = () => {
    if (started && !dynamic) words.push({ text, fromHome })
    if (started && dynamic) {
      const tail = text.slice(literalFrom)
      if (tail.startsWith('/') && tail.length > 1 && !/[*?[]/.test(tail))
        words.push({ text: tail.slice(1), fromHome: false, afterExpansion: true })
    }
    literalFrom = 0
    text = ''
    started = false
    dynamic = false
    fromHome = false
  }
  for (let at = 0; at < line.length; at += 1) {
    const char = line[at] as string
    if (char === ' ' || char === '\t' || OPERATORS.has(char)) {
      end()
      continue
    }
    if (
      !started &&
      char === '~' &&
      (line[at + 1] === '/' || at + 1 === line.length || /\s/.test(line[at + 1] ?? ''))
    ) {
      started = true
      fromHome = true
      if (line[at + 1] === '/') at += 1
      continue
    }
    started = true
    if (char === '\\') {
      at += 1
      if (at < line.length && line[at] !== '\n') text += line[at]
    } else if (char === "'") {
      const close = line.indexOf("'", at + 1)
      const stop = close === -1 ? line.length : close
      text += line.slice(at + 1, stop)
      at = stop
    } else if (char === '"') {
      at += 1
      for (; at < line.length && line[at] !== '"'; at += 1) {
        const inner = line[at] as string
        if (inner === '$' || inner === '`') {
          dynamic = true
          at = skipExpansion(line, at)
          literalFrom = text.length
          continue
        }
        if (inner === '\\' && '$`"\\\n'.includes(line[at + 1] ?? '')) {
          at += 1
          if (line[at] !== '\n') text += line[at]
        } else text += inner
      }
    } else {
      if (char === '$' || char === '`') {
        dynamic = true
        at = skipExpansion(line, at)
        literalFrom = text.length
        continue
      }
      if (char === '*' || char === '?' || char === '[') {
        dynamic = true
        literalFrom = Number.POSITIVE_INFINITY
      }
      text += char
    }
  }
  end()
  return words
}

/** The index of an expansion's last character: `$(…)`, `${…}`, `$NAME`, `$1`, or a backquoted command. */
function skipExpansion(line: string, at: number): number {
  if (line[at] === '`') {
    const close = line.indexOf('`', at + 1)
    return close === -1 ? line.length - 1 : close
  }
  const open = line[at + 1]
  if (open === '(' || open === '{') {
    const close = open === '(' ? ')' : '}'
    let depth = 0
    for (let index = at + 1; index < line.length; index += 1) {
      if (line[index] === open) depth += 1
      else if (line[index] === close && --depth === 0) return index
    }
    return line.length - 1
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(line.slice(at + 1))
  return at + (name ? name[0].length : 0)
}
