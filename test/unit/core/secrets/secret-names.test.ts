import { describe, expect, it } from 'vitest'
import { isCredentialName } from '../../../../src/main/core/secrets/credential-env-names'
import { isSecretGitConfigKey, valueHoldsCredential } from '../../../../src/main/core/secrets/git-secret-keys'
import { HOME_SECRET_PATHS, HOME_SECRETS } from '../../../../src/main/core/secrets/home-secrets'
import { isEnvFileName, isSecretFileName } from '../../../../src/main/core/secrets/secret-file-names'

describe('secret file names (one list for the verdict and the sandbox)', () => {
  it.each([
    '.env',
    '.env.local',
    '.env-local',
    '.env_prod',
    '.envrc',
    '.ENV',
    '.env.',
    '.env ',
    '.env:stream',
    'app.env',
    'prod.env',
    'prod.env.local',
  ])('%s is an env file', (name) => {
    expect(isEnvFileName(name)).toBe(true)
    expect(isSecretFileName(name)).toBe(true)
  })

  it.each([
    'server.pem',
    'tls.key',
    'cert.p12',
    'store.jks',
    'id_rsa',
    'id_ed25519',
    'id_ecdsa_sk',
    'id_rsa.old',
    'credentials.json',
    'credentials',
    '.npmrc',
    '.pypirc',
    '.git-credentials',
    '.netrc',
    'client_secret_1234.apps.googleusercontent.com.json',
    'service-account-prod.json',
    'secrets.yaml',
    'master.key',
  ])('%s is a secret file', (name) => {
    expect(isSecretFileName(name)).toBe(true)
  })

  // An editor's or tool's copy of a secret file holds the secret (a red-team read of `cfg/#.env#`).
  it.each([
    '#.env#',
    '.#.env',
    '.id_rsa.swp',
    'id_ed25519~',
    '.npmrc.bak',
    '.pgpass.orig',
    '#credentials.json#',
    '#.env.bak#',
  ])('%s, a copy of a secret file, is a secret file', (name) => {
    expect(isSecretFileName(name)).toBe(true)
  })

  it.each(['#notes.txt#', 'README.md~', '.main.ts.swp', 'file.bak', '.#index.ts', 'config.yml.orig'])(
    '%s, a copy of an ordinary file, is not',
    (name) => {
      expect(isSecretFileName(name)).toBe(false)
    },
  )

  it.each([
    'environment.ts',
    'env.ts',
    'envoy.yaml',
    '.envoy',
    'id_rsa.pub',
    'id_generator.py',
    'README.md',
    'package.json',
    'keyboard.ts',
    'monkey.txt',
    'credentials.md.txt.bak.ts',
  ])('%s is not', (name) => {
    expect(isSecretFileName(name)).toBe(false)
  })
})

describe('home secrets', () => {
  it('has one reason per entry and no duplicates', () => {
    expect(new Set(HOME_SECRET_PATHS).size).toBe(HOME_SECRET_PATHS.length)
    for (const secret of HOME_SECRETS) expect(secret.why.length).toBeGreaterThan(3)
  })

  it.each([
    '.ssh',
    '.git-credentials',
    '.config/gcloud',
    '.claude',
    '.config/chromium',
    '.docker',
    '.codex',
    '.gemini',
  ])('lists %s (issue 19)', (path) => {
    expect(HOME_SECRET_PATHS).toContain(path)
  })
})

describe('credential environment names', () => {
  it.each([
    'DATABASE_URL',
    'REDIS_URL',
    'MONGODB_URI',
    'SQLALCHEMY_DATABASE_URI',
    'PG_CONNECTION_STRING',
    'AZURE_STORAGE_CONNECTION_STRING',
    'SENTRY_DSN',
    'DSN',
    'CELERY_BROKER_URL',
    'GITHUB_TOKEN',
    'AWS_PROFILE',
  ])('%s is a credential', (name) => {
    expect(isCredentialName(name)).toBe(true)
  })

  it.each(['HOME_URL', 'API_URL', 'PUBLIC_URL', 'SITE_URI', 'SSH_AUTH_SOCK', 'KEYBOARD', 'DB_NAME'])(
    '%s is not',
    (name) => {
      expect(isCredentialName(name)).toBe(false)
    },
  )
})

describe('git config keys that hold credentials', () => {
  it.each([
    'http.https://example.com/.extraheader',
    'credential.helper',
    'url.https://tok@example.com/.insteadof',
    'sendemail.smtppass',
    'sendemail.work.smtpPass',
    'imap.pass',
    'github.token',
    'hub.oauthtoken',
    'deploy.secret',
    'remote.origin.password',
    'openai.apikey',
    'service.api-key',
    'deploy.private-key',
    'aws.accesskey',
    'tool.sessionKey',
    'gateway.bearer',
    'ci.jwt',
    // Fifth review.
    'openai.key',
    'slack.webhook',
    'db.pwd',
    'deploy.creds',
    'wallet.mnemonic',
    // Second round today: keys a tool names after what the key is for.
    'deploy.servicekey',
    'vault.masterKey',
    'oauth.client-key',
    'backup.encryptionkey',
  ])('%s', (key) => {
    expect(isSecretGitConfigKey(key)).toBe(true)
  })

  it.each([
    'core.editor',
    'user.name',
    'user.email',
    'remote.origin.url',
    'branch.main.remote',
    'user.signingkey',
    'core.sshcommandkey',
    'gpg.ssh.allowedsignersfile',
    'core.hookspath',
  ])('%s is not', (key) => {
    expect(isSecretGitConfigKey(key)).toBe(false)
  })

  it('finds a token by its issuer prefix in any value, whatever the key is called', () => {
    for (const value of [
      'sk-SECRETMARKER42-openai-abcdef',
      'Bearer ghp_16C7e42F292c6912E7710c8',
      'token=xoxb-1234567890-abcdefgh',
    ])
      expect(valueHoldsCredential(value), value).toBe(true)
    for (const value of ['sk-short', 'desk-lamp-for-the-office-of-mine', 'npm_config', 'main'])
      expect(valueHoldsCredential(value), value).toBe(false)
  })

  it('finds a password in a URL value', () => {
    expect(valueHoldsCredential('https://me:ghp_abc@github.com/o/r.git')).toBe(true)
    expect(valueHoldsCredential('https://github.com/o/r.git')).toBe(false)
    expect(valueHoldsCredential('git@github.com:o/r.git')).toBe(false)
    expect(valueHoldsCredential('https://me@github.com/o/r.git')).toBe(false)
  })

  it('finds a token given as the URL user, as GitHub and GitLab take one, but not a plain user', () => {
    for (const user of [
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
      'github_pat_11ABC',
      'glpat-xxxxxxxx',
      'x'.repeat(40),
      // Shorter random tokens, as Gitea and self-hosted servers hand out: letters and digits mixed.
      '3f9a1c07d2e84b6a',
      'a8Kq2ZpL0vX7mN4r',
      '1234567890123456',
    ])
      expect(valueHoldsCredential(`https://${user}@github.com/o/r.git`), user).toBe(true)
    // A config name holds one too: `url.<base>.insteadof`.
    expect(valueHoldsCredential('url.https://ghp_abcdef@github.com/.insteadof')).toBe(true)
    for (const user of [
      'git',
      'jdoe',
      'x-access-token',
      'first.last',
      'jdoe42',
      'maintainer-account',
      'john.smith1990',
    ])
      expect(valueHoldsCredential(`https://${user}@example.com/o/r.git`), user).toBe(false)
    expect(valueHoldsCredential('ssh://git@github.com/o/r.git')).toBe(false)
  })
})
