import type { EnvRecord } from './env-keys'

/**
 * Which variables look like credentials (issue 12 point 4): they are withheld from agent commands
 * unless the user passes them through by name (`environment.passThrough`).
 *
 * The rule works on name segments, not substrings, so KEYBOARD, MONKEY_PATCH, AUTHOR or
 * TOKENIZERS_PARALLELISM are not mistaken for secrets. The name is upper-cased and cut at every
 * character that is not a letter or digit (`npm_config__auth` → NPM, CONFIG, AUTH); trailing
 * digits and a plural S are ignored (TOKENS, KEY2). A segment is a credential when it
 * - is one of the words KEY, SECRET, TOKEN, PASSWORD, PASSWD, PASS, PASSPHRASE, CREDENTIAL, AUTH,
 *   AUTHORIZATION, JWT or PAT;
 * - ends in one of the long words, glued to a prefix (GHTOKEN, PGPASSWORD, CLIENTSECRET, OAUTH);
 * - ends in KEY glued to a word that makes it a key (APIKEY, ACCESSKEY, PRIVATEKEY…): a bare
 *   `…KEY` suffix is too often a word (MONKEY, HOCKEY, HOTKEY).
 * Known families are withheld whatever their segments: every AWS_* variable (the SDKs read
 * credentials from several of them, and AWS_PROFILE selects stored ones).
 */
const SEGMENT_WORDS = new Set([
  'KEY',
  'SECRET',
  'TOKEN',
  'PASSWORD',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'CREDENTIAL',
  'AUTH',
  'AUTHORIZATION',
  'JWT',
  'PAT',
])
const GLUED_SUFFIX = /(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH)$/
const GLUED_KEY =
  /^(API|ACCESS|PRIVATE|SECRET|SIGNING|MASTER|ENCRYPTION|LICENSE|AUTH|DEPLOY|CLIENT|SERVICE|APP|SESSION|CRYPT)KEY$/
const KNOWN_PREFIXES = ['AWS_']

/**
 * Matched by the rule but not secrets: a socket path that git over ssh needs (whether the socket is
 * reachable from inside a command is the sandbox's decision, not the environment's), and the
 * names half of git's GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> pairs, which would otherwise lose
 * their keys and leave the values meaning nothing.
 */
const NOT_CREDENTIALS = new Set(['SSH_AUTH_SOCK'])
const NOT_CREDENTIAL_PATTERN = /^GIT_CONFIG_KEY_[0-9]+$/

export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase()
  if (NOT_CREDENTIALS.has(upper) || NOT_CREDENTIAL_PATTERN.test(upper)) return false
  if (KNOWN_PREFIXES.some((prefix) => upper.startsWith(prefix))) return true
  return upper
    .split(/[^A-Z0-9]+/)
    .map((segment) => segment.replace(/[0-9]+$/, ''))
    .some((segment) => {
      const singular = segment.length > 3 && segment.endsWith('S') ? segment.slice(0, -1) : segment
      return [segment, singular].some(
        (word) => SEGMENT_WORDS.has(word) || GLUED_SUFFIX.test(word) || GLUED_KEY.test(word),
      )
    })
}

export interface CredentialWithholding {
  env: EnvRecord
  /** Credential-like names removed, sorted. */
  withheldKeys: string[]
  /** Credential-like names kept because the user passed them through, sorted. */
  passedThroughKeys: string[]
}

/**
 * Removes credential-like variables except the ones passed through. Names are compared as the
 * platform compares them: exactly on POSIX, case-insensitively on Windows.
 */
export function withholdCredentials(
  env: Readonly<EnvRecord>,
  passThrough: readonly string[],
  platform: NodeJS.Platform,
): CredentialWithholding {
  const fold = (name: string) => (platform === 'win32' ? name.toUpperCase() : name)
  const allowed = new Set(passThrough.map(fold))
  const kept: EnvRecord = {}
  const withheldKeys: string[] = []
  const passedThroughKeys: string[] = []
  for (const [key, value] of Object.entries(env)) {
    if (!isCredentialName(key)) kept[key] = value
    else if (allowed.has(fold(key))) {
      kept[key] = value
      passedThroughKeys.push(key)
    } else withheldKeys.push(key)
  }
  return { env: kept, withheldKeys: withheldKeys.sort(), passedThroughKeys: passedThroughKeys.sort() }
}
