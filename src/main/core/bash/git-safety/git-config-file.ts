/** One `key = value` line of a git config file; section and key lowercased as git compares them. */
export interface GitConfigEntry {
  section: string
  /** Case-sensitive, as in `[diff "pdf"]`; null for `[core]`. */
  subsection: string | null
  key: string
  /** null for a bare `key` line, which git reads as true. */
  value: string | null
}

/** The full dotted name git uses: `diff.pdf.textconv`, with the subsection kept as written. */
export function entryName(entry: GitConfigEntry): string {
  return entry.subsection === null
    ? `${entry.section}.${entry.key}`
    : `${entry.section}.${entry.subsection}.${entry.key}`
}

const SECTION_HEADER = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\]/
const KEY_LINE = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/

/**
 * Parse git's config syntax well enough to see every key: sections (`[a]`, `[a "b"]`, `[a.b]`),
 * keys with or without values, comments, quotes and backslash continuations. Lines it cannot read
 * are returned as `unreadable` so the caller refuses rather than guessing.
 */
export function parseGitConfig(text: string): { entries: GitConfigEntry[]; unreadable: string[] } {
  const entries: GitConfigEntry[] = []
  const unreadable: string[] = []
  let section: string | null = null
  let subsection: string | null = null
  const lines = joinContinuations(text)
  for (const raw of lines) {
    let line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = SECTION_HEADER.exec(line)
    if (header) {
      const [name, ...rest] = (header[1] as string).split('.')
      section = (name as string).toLowerCase()
      // `[a "b"]` keeps the subsection's case; the older `[a.b]` spelling lowercases it, as git does.
      subsection =
        header[2] !== undefined
          ? header[2].replace(/\\(.)/g, '$1')
          : rest.length
            ? rest.join('.').toLowerCase()
            : null
      line = line.slice(header[0].length).trim()
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    }
    const key = KEY_LINE.exec(line)
    if (!key || section === null) {
      unreadable.push(raw.slice(0, 80))
      continue
    }
    entries.push({
      section,
      subsection,
      key: (key[1] as string).toLowerCase(),
      value: key[2] === undefined ? null : unquoteValue(key[2]),
    })
  }
  return { entries, unreadable }
}

function joinContinuations(text: string): string[] {
  const joined: string[] = []
  let pending = ''
  for (const line of text.split(/\r?\n/)) {
    if (line.endsWith('\\') && !line.endsWith('\\\\')) {
      pending += line.slice(0, -1)
      continue
    }
    joined.push(pending + line)
    pending = ''
  }
  if (pending) joined.push(pending)
  return joined
}

/** Strip quotes and inline comments the way git reads a value. */
function unquoteValue(raw: string): string {
  let value = ''
  let quoted = false
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index] as string
    if (char === '"') quoted = !quoted
    else if (char === '\\' && index + 1 < raw.length) {
      const next = raw[index + 1] as string
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next
      index += 1
    } else if (!quoted && (char === '#' || char === ';')) break
    else value += char
  }
  return value.trim()
}
