/**
 * Which environment variable names look like credentials (issues 12 and 21). The same rule
 * withholds them from agent commands (env/credential-names.ts) and makes the verdict ask before a
 * command expands one (`echo "$DATABASE_URL"`).
 *
 * The rule works on name segments, not substrings, so KEYBOARD, MONKEY_PATCH, AUTHOR or
 * TOKENIZERS_PARALLELISM are not mistaken for secrets. The name is upper-cased and cut at every
 * character that is not a letter or digit (`npm_config__auth` → NPM, CONFIG, AUTH); trailing
 * digits and a plural S are ignored (TOKENS, KEY2). A segment is a credential when it
 * - is one of the words KEY, SECRET, TOKEN, PASSWORD, PASSWD, PASS, PASSPHRASE, CREDENTIAL, AUTH,
 *   AUTHORIZATION, JWT, PAT, DSN, COOKIE, the short PWD and CRED(S), or WEBHOOK, BEARER,
 *   MNEMONIC, PASSCODE (PWD and OLDPWD themselves are the shell's folders); PW after another
 *   word (DB_PW; a leading PW_ is Playwright's);
 * - ends in one of the long words, glued to a prefix (GHTOKEN, PGPASSWORD, CLIENTSECRET, OAUTH);
 * - ends in KEY glued to a word that makes it a key (APIKEY, ACCESSKEY, PRIVATEKEY…): a bare
 *   `…KEY` suffix is too often a word (MONKEY, HOCKEY, HOTKEY).
 * Connection strings carry a password in their user part (`postgres://app:hunter2@db/app`): a URL,
 * URI or connection-string name after a database, cache or queue word is one (DATABASE_URL,
 * REDIS_URI, MONGODB_URL, PG_CONNECTION_STRING, SQLALCHEMY_DATABASE_URI), and so is every
 * `…_CONNECTION_STRING`.
 * Proxy variables (HTTPS_PROXY, ALL_PROXY) are not on the list, although their URL may carry a
 * password: Shellgate seals them and hands them to every command by design (issue 22), so a
 * command printing one learns nothing it was not given.
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
  'DSN',
  'COOKIE',
  'CONNSTR',
  // Short spellings (MYSQL_PWD, LDAP_BIND_PW, DB_CREDS) and values that are secrets by nature.
  'PWD',
  'CRED',
  'CREDS',
  'WEBHOOK',
  'BEARER',
  'MNEMONIC',
  'PASSCODE',
])
const GLUED_SUFFIX =
  /(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|CREDENTIALS|CREDS|AUTH|WEBHOOK|APIKEY)$/
const GLUED_KEY =
  /^(API|ACCESS|PRIVATE|SECRET|SIGNING|MASTER|ENCRYPTION|LICENSE|AUTH|DEPLOY|CLIENT|SERVICE|APP|SESSION|CRYPT)KEY$/
const KNOWN_PREFIXES = ['AWS_', 'OP_SESSION_']
/**
 * Names that are credentials by their tool's convention, whatever their words: password-manager
 * session keys (Bitwarden's BW_SESSION, 1Password's OP_SESSION_<account>), SonarQube's login token.
 */
const KNOWN_NAMES = new Set(['BW_SESSION', 'SONAR_LOGIN', 'SUPABASE_SERVICE_ROLE'])
/** Words before URL/URI that make it a connection string, which carries the password. */
const STORE_WORDS = new Set([
  'DATABASE',
  'DB',
  'POSTGRES',
  'POSTGRESQL',
  'PG',
  'MYSQL',
  'MARIADB',
  'MONGO',
  'MONGODB',
  'REDIS',
  'VALKEY',
  'MEMCACHE',
  'MEMCACHED',
  'AMQP',
  'RABBITMQ',
  'RABBIT',
  'KAFKA',
  'NATS',
  'ELASTICSEARCH',
  'ELASTIC',
  'OPENSEARCH',
  'CLICKHOUSE',
  'CASSANDRA',
  'NEO4J',
  'SQL',
  'MSSQL',
  'SQLSERVER',
  'ORACLE',
  'JDBC',
  'SQLALCHEMY',
  'BROKER',
  'CELERY',
  'SMTP',
  'LDAP',
  'SENTRY',
  // Hosted stores whose add-ons name their connection URL after themselves (Heroku, Vercel…).
  'REDISCLOUD',
  'REDISTOGO',
  'REDISGREEN',
  'KEYDB',
  'DRAGONFLY',
  'JAWSDB',
  'CLEARDB',
  'MONGOLAB',
  'MONGOHQ',
  'CLOUDAMQP',
  'CLOUDKARAFKA',
  'KV',
  'LIBSQL',
  'TURSO',
  'UPSTASH',
  'NEON',
  'PLANETSCALE',
  'COCKROACH',
  'COCKROACHDB',
  'COUCHDB',
  'MQTT',
  'SURREAL',
  'SURREALDB',
])
const URL_WORDS = new Set(['URL', 'URI', 'URLS', 'URIS', 'ADDR'])

/**
 * Matched by the rule but not secrets: a socket path that git over ssh needs (whether the socket is
 * reachable from inside a command is the sandbox's decision, not the environment's), and the
 * names half of git's GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> pairs, which would otherwise lose
 * their keys and leave the values meaning nothing.
 */
// PWD and OLDPWD are the shell's folders; PWD as a segment of any other name is a password.
const NOT_CREDENTIALS = new Set(['SSH_AUTH_SOCK', 'PWD', 'OLDPWD'])
const NOT_CREDENTIAL_PATTERN = /^GIT_CONFIG_KEY_[0-9]+$/
/**
 * Issue 22.8: where a tool finds its certificate authorities (AWS_CA_BUNDLE, a *_CA_CERTS path) is
 * a public trust anchor, not a credential; withholding it only breaks TLS behind a company proxy
 * and lists a CA path as a secret, whatever words come before it (AUTH_SERVICE_CA_CERT_FILE,
 * VAULT_CACERT, MYSQL_SSL_CA). A CA's private key (*_CA_KEY, *_CA_KEY_FILE) is still a credential.
 */
const TRUST_ANCHOR_PATH =
  /(?:^|_)(?:CA_BUNDLE|CA_CERTS?|CA_CERTIFICATES?|CA_FILE|CA_PATH|CA_DIR|CAINFO|CAFILE|CAPATH|CACERTS?|CABUNDLE|ROOT_CA|ROOT_CERTS?|SSL_CA|TLS_CA)(?:_FILE|_PATH|_DIR|_FILE_PATH)?$/

export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase()
  if (NOT_CREDENTIALS.has(upper) || NOT_CREDENTIAL_PATTERN.test(upper) || TRUST_ANCHOR_PATH.test(upper))
    return false
  if (KNOWN_PREFIXES.some((prefix) => upper.startsWith(prefix)) || KNOWN_NAMES.has(upper)) return true
  const segments = upper.split(/[^A-Z0-9]+/).map((segment) => segment.replace(/[0-9]+$/, ''))
  if (isConnectionString(segments)) return true
  // PW after another word is a password (DB_PW, LDAP_BIND_PW); first, it is Playwright's (PW_TEST_…).
  // SK after another word is a secret key (STRIPE_SK); SEED after a one-time-password word a TOTP seed.
  if (segments.slice(1).some((segment) => segment === 'PW' || segment === 'SK')) return true
  if (
    segments.some(
      (segment, at) =>
        segment === 'SEED' && ['TOTP', 'OTP', 'MFA', '2FA', 'HOTP'].includes(segments[at - 1] ?? ''),
    )
  )
    return true
  return segments.some((segment) => {
    const singular = segment.length > 3 && segment.endsWith('S') ? segment.slice(0, -1) : segment
    return [segment, singular].some(
      (word) => SEGMENT_WORDS.has(word) || GLUED_SUFFIX.test(word) || GLUED_KEY.test(word),
    )
  })
}

function isConnectionString(segments: readonly string[]): boolean {
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index]!
    const next = segments[index + 1]
    if (segment === 'CONNECTION' && (next === 'STRING' || next === 'URL' || next === 'URI')) return true
    // GOOGLE_SERVICE_ACCOUNT_JSON: the key file's contents.
    if (segment === 'SERVICE' && next === 'ACCOUNT' && segments[index + 2] === 'JSON') return true
    if (URL_WORDS.has(segment) && index > 0 && segments.slice(0, index).some((word) => STORE_WORDS.has(word)))
      return true
  }
  return false
}
