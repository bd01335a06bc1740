import { isCredentialName } from '../secrets/credential-env-names'
import { isIncludePath, parseGitConfig, unquote } from '../secrets/git-config-text'
import { isSecretGitConfigKey, redactedConfigName, valueHoldsCredential } from '../secrets/git-secret-keys'

/** What a git config file says that decides whether, and with what, the sandbox mounts it. */
export interface GitConfigFacts {
  /** The first key that holds a credential (the secrets room's rule), or a reason it cannot be told. */
  credential: string | null
  /** include.path and includeIf.<cond>.path values, as written. */
  includes: string[]
  /** core.excludesFile, as written. */
  excludesFile: string | null
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
    if (isSecretGitConfigKey(name) || valueHoldsCredential(value))
      facts.credential ??= redactedConfigName(name)
    if (isIncludePath(name)) facts.includes.push(value)
    if (name.toLowerCase() === 'core.excludesfile') facts.excludesFile = value
  }
  return facts
}

/**
 * The first key of an ini-like file (.npmrc-style, pip.conf, wgetrc, TOML) whose name is a
 * credential (`//registry/:_authToken`, `password`, `token`) or whose value carries one in a URL.
 */
export function iniCredential(text: string | null): string | null {
  if (text === null) return 'too large or unreadable to check'
  let key = ''
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || /^[#;[]/.test(line)) continue
    // An indented line continues the value above (pip's `extra-index-url =` then URLs below).
    if (/^\s/.test(raw) && key !== '') {
      if (valueHoldsCredential(unquote(line))) return key
      continue
    }
    const at = line.search(/[=:]\s|=|\s/)
    key = (at === -1 ? line : line.slice(0, at)).trim()
    const value = at === -1 ? '' : unquote(line.slice(at + 1).replace(/^[=:\s]+/, ''))
    if (isCredentialName(key) || valueHoldsCredential(value)) return key
  }
  return null
}

export function configHoldsCredential(text: string | null, format: 'git' | 'ini'): string | null {
  return format === 'git' ? gitConfigFacts(text).credential : iniCredential(text)
}
