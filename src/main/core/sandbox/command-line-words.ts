/**
 * The words of a command line git hands to `sh -c` (a filter, an alias after `!`, a pager), as
 * the shell splits them: quotes and backslashes removed, and the control operators (`;`, `&`,
 * `|`, parentheses, redirections) ending a word, so `cd x && node 'tools/my clean.js'` yields
 * `tools/my clean.js`. A word that holds an expansion (`$X`, a backquote) is left out: what it
 * names is known only when the shell runs it. Leading `~/` is marked so the caller can read it as
 * the home folder, as the shell does for an unquoted tilde.
 */
export interface CommandLineWord {
  text: string
  /** The word began with an unquoted `~/` (or is a lone `~`): `text` is what follows it. */
  fromHome: boolean
}

const OPERATORS = new Set([';', '&', '|', '(', ')', '<', '>', '\n'])

export function commandLineWords(line: string): CommandLineWord[] {
  const words: CommandLineWord[] = []
  let text = ''
  let started = false
  let dynamic = false
  let fromHome = false
  const end = () => {
    if (started && !dynamic) words.push({ text, fromHome })
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
        if (inner === '$' || inner === '`') dynamic = true
        if (inner === '\\' && '$`"\\\n'.includes(line[at + 1] ?? '')) {
          at += 1
          if (line[at] !== '\n') text += line[at]
        } else text += inner
      }
    } else {
      if (char === '$' || char === '`' || char === '*' || char === '?' || char === '[') dynamic = true
      text += char
    }
  }
  end()
  return words
}
