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
  /pass|token|secret|auth|credential|cookie|(?:api|private|access|session|service|master|client|encryption|deploy|license|app)-?key|^key$|bearer|jwt|webhook|pwd|creds?$|mnemonic/

/** True for a key (`section[.subsection].key`) whose value may be a credential. */
export function isSecretGitConfigKey(name: string): boolean {
  const lower = name.toLowerCase()
  const section = lower.slice(0, lower.indexOf('.') === -1 ? lower.length : lower.indexOf('.'))
  if (SECRET_SECTIONS.has(section)) return true
  const key = lower.slice(lower.lastIndexOf('.') + 1)
  return SECRET_KEY_WORD.test(key)
}

// A user part that is a token by its issuer's prefix (GitHub, GitLab, Slack, npm, Hugging Face…), by
// its length, or by its shape: `https://ghp_…@github.com/` is how GitHub takes a token without a
// password, and Gitea, Bitbucket and self-hosted servers take shorter random ones the same way
// (`https://3f9a1c07d2e84b6a@git.example.com/`). A user name of 16 or more characters that mixes
// letters and digits, or is all digits, is taken for one: a person's login rarely is, and a wrong
// guess only asks.
const TOKEN_USER =
  /^(?:gh[pousr]_|github_pat_|glpat-|gldt-|xox[abpr]-|npm_|hf_|sk-|pat-)|^[A-Za-z0-9_.~%+-]{32,}$|^(?=[^.]*\d)(?=[^.]*[A-Za-z])[A-Za-z0-9_~%+-]{16,}$|^\d{16,}$/

// A token by its issuer's prefix anywhere in a value (`openai.key = sk-…`), whatever the key is called.
const TOKEN_VALUE =
  /(?:^|[\s"'=:,])(?:gh[pousr]_|github_pat_|glpat-|gldt-|xox[abpr]-|npm_|hf_|sk-|pat-)[A-Za-z0-9_-]{16,}/

/**
 * True when a value carries a password in a URL's user part (`https://me:tok@host/`), a user
 * part that is itself a token (`https://ghp_…@github.com/`), or a token by its prefix.
 */
export function valueHoldsCredential(value: string): boolean {
  if (/[a-z][a-z0-9+.-]*:\/\/[^/\s@:]*:[^/\s@]+@/i.test(value)) return true
  if (TOKEN_VALUE.test(value)) return true
  for (const match of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/([^/\s@:]+)@/gi))
    if (TOKEN_USER.test(match[1] as string)) return true
  return false
}

/**
 * A config name as a reason may show it: one that carries a password itself
 * (`url.https://me:tok@host/.insteadof`) keeps only its section and key (`url.<…>.insteadof`).
 */
export function redactedConfigName(name: string): string {
  if (!valueHoldsCredential(name)) return name
  const first = name.indexOf('.')
  const last = name.lastIndexOf('.')
  return first === last ? '<…>' : `${name.slice(0, first)}.<…>${name.slice(last)}`
}
