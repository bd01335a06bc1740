/**
 * Git config keys that hold credentials (issue 21): `git config KEY` and forms that print many
 * keys ask before they print one. By section (http.* extra headers and cookie files, credential.*
 * helpers' settings, url.* rewrites that embed a user and password), by git's own password keys
 * (sendemail.smtpPass, imap.pass), and by any key whose name says pass, token, secret, password,
 * auth, credential, cookie or an API, private, access or session key, or a bearer/JWT, under any
 * section a tool adds (`hub.oauthtoken`, `github.token`, `openai.apikey`, `deploy.private-key`).
 *
 * Names are compared as git does: section and key case-insensitively, the subsection as written
 * (we lower-case the whole name, which can only match more).
 */
const SECRET_SECTIONS = new Set(['http', 'credential', 'url'])
const SECRET_KEY_WORD =
  /pass|token|secret|auth|credential|cookie|(?:api|private|access|session)-?key|bearer|jwt/

/** True for a key (`section[.subsection].key`) whose value may be a credential. */
export function isSecretGitConfigKey(name: string): boolean {
  const lower = name.toLowerCase()
  const section = lower.slice(0, lower.indexOf('.') === -1 ? lower.length : lower.indexOf('.'))
  if (SECRET_SECTIONS.has(section)) return true
  const key = lower.slice(lower.lastIndexOf('.') + 1)
  return SECRET_KEY_WORD.test(key)
}

/** True when a value carries a password in a URL's user part (`https://me:tok@host/`). */
export function valueHoldsCredential(value: string): boolean {
  return /[a-z][a-z0-9+.-]*:\/\/[^/\s@:]*:[^/\s@]+@/i.test(value)
}
