/** git config files as text: read by the sandbox's home allow list and by the verdict's git checks. */

const SECTION = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/
const KEY_VALUE = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/

export interface GitConfigText {
  /** `section[.subsection].key` and its value, in file order. */
  entries: { name: string; value: string }[]
  /** The first line this reader cannot read; callers treat such a file as the worst case. */
  unreadable: string | null
}

/**
 * Reads a git config file as git does, as far as the sandbox's decisions need: sections (`[http]`,
 * `[credential "https://host"]`, `[url.x]`), keys, quoted values, comments and continued lines.
 */
export function parseGitConfig(text: string): GitConfigText {
  const parsed: GitConfigText = { entries: [], unreadable: null }
  let section = ''
  for (const raw of logicalLines(text)) {
    let line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = SECTION.exec(line)
    if (header) {
      section = header[2] === undefined ? header[1]! : `${header[1]}.${header[2]}`
      line = header[3]!.trim()
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    }
    const pair = KEY_VALUE.exec(line)
    if (!pair || section === '') {
      parsed.unreadable ??= JSON.stringify(raw.slice(0, 60))
      continue
    }
    parsed.entries.push({ name: `${section}.${pair[1]}`, value: unquote(pair[2] ?? '') })
  }
  return parsed
}

/**
 * The lines git reads: a backslash at the very end of a line continues it, but not in a comment
 * (a `#` or `;` outside quotes, whole-line or after a value), where git ignores it. Removing every
 * backslash-newline first made `# note \` swallow the next line, a `core.fsmonitor` git runs
 * (sixth review), hidden from the sandbox's checks.
 */
function logicalLines(text: string): string[] {
  const lines: string[] = []
  let pending = ''
  for (const physical of text.split(/\r?\n/)) {
    const line = pending + physical
    if (endsInContinuation(line)) pending = line.slice(0, -1)
    else {
      lines.push(line)
      pending = ''
    }
  }
  if (pending !== '') lines.push(pending)
  return lines
}

function endsInContinuation(line: string): boolean {
  let quoted = false
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!
    if (char === '\\') {
      if (index === line.length - 1) return true
      index += 1
    } else if (char === '"') quoted = !quoted
    else if (!quoted && (char === '#' || char === ';')) return false
  }
  return false
}

/** Strips an inline comment outside quotes and the quotes themselves. */
export function unquote(value: string): string {
  let out = ''
  let quoted = false
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index]!
    if (char === '"') quoted = !quoted
    else if (!quoted && (char === '#' || char === ';')) break
    else if (char === '\\' && index + 1 < value.length) out += value[++index]
    else out += char
  }
  return out.trim()
}

/** `include.path` and `includeIf.<condition>.path`: a file git reads as part of this one. */
export function isIncludePath(name: string): boolean {
  const lower = name.toLowerCase()
  return lower === 'include.path' || (lower.startsWith('includeif.') && lower.endsWith('.path'))
}
