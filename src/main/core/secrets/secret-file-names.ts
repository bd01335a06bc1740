/**
 * File names that hold secrets wherever they are (issues 19 and 21): inside the workspace at any
 * depth and outside it. The verdict asks before a command reads one; the read-only sandbox hides
 * them from commands that run without asking.
 *
 * Names are compared case-insensitively, with Windows' trailing dots and spaces and `:stream`
 * suffixes: on macOS and Windows `cat .ENV` or `type .env.` opens .env itself.
 */

// `.env`, `.env.local`, `.env-local`, `.env_prod`, `.envrc`, `app.env`, `prod.env`, `.env.prod.local`.
const ENV_FILE = /^(?:\.env(?:[.\-_:~].*|rc)?|[^/]+\.env(?:[.\-_:~].*)?)$/i
// Keys and certificates with their private half: PEM bundles, PKCS#12, PKCS#8 (.p8: App Store and APNs keys), Java keystores, PuTTY keys.
const KEY_FILE = /\.(?:pem|key|p12|p8|pfx|jks|keystore|ppk|kdbx)$/i
// ssh's default key names, without the public half.
const SSH_KEY = /^id_(?:rsa|dsa|ecdsa|ed25519|xmss)(?:_sk)?(?:[-_.](?!pub$)[^/]*)?$/i
const NAMED = new Set([
  'credentials',
  'credentials.json',
  'credentials.toml',
  'credentials.yml',
  'credentials.yaml',
  'credentials.tfrc.json',
  '.git-credentials',
  '.netrc',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.htpasswd',
  '.vault-token',
  '.dockercfg',
  '.secrets',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  'master.key',
  'auth.json',
  'oauth_creds.json',
  '.credentials.json',
  'service-account.json',
  'terraform.tfvars',
])
// Google's downloaded OAuth clients and service-account keys.
const GOOGLE_CLIENT = /^(?:client_secret|service[-_]account)[^/]*\.json$/i

/** The name as the file system opens it: trailing dots and spaces and a `:stream` suffix dropped. */
function canonicalName(name: string): string {
  return name.replace(/:.*$/, '').replace(/[. ]+$/, '')
}

/** A file name projects keep their environment secrets in (`.env`, `.env.local`, `app.env`, `.envrc`). */
export function isEnvFileName(name: string): boolean {
  const canonical = canonicalName(name)
  return ENV_FILE.test(canonical) || ENV_FILE.test(name)
}

// Editors' and tools' copies of a file, named after it: emacs autosaves (`#.env#`) and lock links
// (`.#.env`), vim swap files (`.id_rsa.swp`), backups (`id_rsa~`, `.npmrc.bak`, `.pgpass.orig`).
// A copy holds what the file holds.
const COPY_FORMS: readonly RegExp[] = [
  /^#(.+)#$/,
  /^\.#(.+)$/,
  /^\.(.+)\.sw[a-p]$/i,
  /^(.+)~$/,
  /^(.+)\.(?:bak|backup|orig|old|save|tmp|swp|swo)$/i,
]

/** The name of the file a copy's name comes from, or null when it is no copy's name. */
function copiedName(name: string): string | null {
  for (const form of COPY_FORMS) {
    const base = form.exec(name)?.[1]
    if (base !== undefined && base !== '') return base
  }
  return null
}

/** Any file name that holds a secret: env files, private keys, credential files, and copies of them. */
export function isSecretFileName(name: string): boolean {
  if (namesASecret(name)) return true
  // Copies of copies (`#.env.bak#`) are unwrapped a few levels deep.
  let copied = copiedName(name)
  for (let depth = 0; copied !== null && depth < 3; depth += 1) {
    if (namesASecret(copied)) return true
    copied = copiedName(copied)
  }
  return false
}

function namesASecret(name: string): boolean {
  if (isEnvFileName(name)) return true
  const canonical = canonicalName(name)
  const lower = canonical.toLowerCase()
  return (
    NAMED.has(lower) || KEY_FILE.test(canonical) || SSH_KEY.test(canonical) || GOOGLE_CLIENT.test(canonical)
  )
}
