import { isCredentialName } from '../secrets/credential-env-names'
import { isSecretGitConfigKey, valueHoldsCredential } from '../secrets/git-secret-keys'

/** What a git config file says that decides whether, and with what, the sandbox mounts it. */
export interface GitConfigFacts {
  /** The first key that holds a credential (the secrets room's rule), or a reason it cannot be told. */
  credential: string | null
  /** include.path and includeIf.<cond>.path values, as written. */
  includes: string[]
  /** core.excludesFile, as written. */
  excludesFile: string | null
}

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
  for (const raw of text.replace(/\\\r?\n/g, '').split(/\r?\n/)) {
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
 * The facts of a git config the home allow list needs. A line it cannot read counts as a
 * credential, so an odd file is left out rather than let in.
 */
export function gitConfigFacts(text: string | null): GitConfigFacts {
  const facts: GitConfigFacts = { credential: null, includes: [], excludesFile: null }
  if (text === null) return { ...facts, credential: 'too large or unreadable to check' }
  const parsed = parseGitConfig(text)
  if (parsed.unreadable) facts.credential = `a line that cannot be read here: ${parsed.unreadable}`
  for (const { name, value } of parsed.entries) {
    if (isSecretGitConfigKey(name) || valueHoldsCredential(value)) facts.credential ??= name
    const lower = name.toLowerCase()
    if (lower === 'include.path' || (lower.startsWith('includeif.') && lower.endsWith('.path'))) {
      facts.includes.push(value)
    }
    if (lower === 'core.excludesfile') facts.excludesFile = value
  }
  return facts
}

/**
 * The first key of an ini-like file (.npmrc-style, pip.conf, wgetrc, TOML) whose name is a
 * credential (`//registry/:_authToken`, `password`, `token`) or whose value carries one in a URL.
 */
export function iniCredential(text: string | null): string | null {
  if (text === null) return 'too large or unreadable to check'
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || /^[#;[]/.test(line)) continue
    const at = line.search(/[=:]\s|=|\s/)
    const key = (at === -1 ? line : line.slice(0, at)).trim()
    const value = at === -1 ? '' : unquote(line.slice(at + 1).replace(/^[=:\s]+/, ''))
    if (isCredentialName(key) || valueHoldsCredential(value)) return key
  }
  return null
}

export function configHoldsCredential(text: string | null, format: 'git' | 'ini'): string | null {
  return format === 'git' ? gitConfigFacts(text).credential : iniCredential(text)
}

/** Strips an inline comment outside quotes and the quotes themselves. */
function unquote(value: string): string {
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
