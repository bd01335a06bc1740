import { describe, expect, it } from 'vitest'
import { isCredentialName, withholdCredentials } from '../../../../src/main/core/env/credential-names'

describe('isCredentialName', () => {
  it.each([
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'NPM_TOKEN',
    'NODE_AUTH_TOKEN',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'STRIPE_SECRET',
    'PGPASSWORD',
    'MYSQL_PWD_PASSWD',
    'DB_PASS',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'npm_config__auth',
    'DOCKER_AUTH_CONFIG',
    'HTTP_AUTHORIZATION',
    'CI_JOB_JWT',
    'GITLAB_PAT',
    'SLACK_APIKEY',
    'SSH_PRIVATEKEY',
    'GHTOKEN',
    'OAUTH',
    'VAULT_TOKENS',
    'SIGNING_KEY2',
    'gpg-passphrase',
    // Fifth review: short spellings, webhooks, hosted stores' URLs, glued API keys.
    'MYSQL_PWD',
    'DB_PW',
    'LDAP_BIND_PW',
    'DB_CREDS',
    'GOOGLE_CREDS',
    'SLACK_WEBHOOK_URL',
    'DISCORD_WEBHOOK_URL',
    'SENDGRIDAPIKEY',
    'REDISCLOUD_URL',
    'JAWSDB_URL',
    'MONGOLAB_URI',
    'CLOUDAMQP_URL',
    'KV_URL',
    'LIBSQL_URL',
    'BEARER',
    'WALLET_MNEMONIC',
    'GOOGLE_SERVICE_ACCOUNT_JSON',
    // Sixth review.
    'BW_SESSION',
    'OP_SESSION_my',
    'STRIPE_SK',
    'TOTP_SEED',
    'SONAR_LOGIN',
    'SUPABASE_SERVICE_ROLE',
  ])('%s is withheld', (name) => {
    expect(isCredentialName(name)).toBe(true)
  })

  it.each([
    'KEYBOARD_LAYOUT',
    'MONKEY_PATCH',
    'HOTKEY',
    'AUTHOR_NAME',
    'GIT_AUTHOR_EMAIL',
    'TOKENIZERS_PARALLELISM',
    'SSH_AUTH_SOCK',
    'GIT_CONFIG_KEY_0',
    'PATH',
    'PWD',
    'OLDPWD',
    'pwd',
    // Sealed by Shellgate and handed to every command: printing one tells a command nothing new.
    'HTTPS_PROXY',
    'all_proxy',
    'GOOGLE_SERVICE_ACCOUNT_EMAIL',
    'PW_TEST_HTML_REPORT_OPEN',
    'PWDEBUG',
    'RANDOM_SEED',
    'SK_LEARN_VERSION',
    'XDG_SESSION_TYPE',
    'DESKTOP_SESSION',
    'BYPASS_CACHE',
    'COMPASS_HOME',
    'HOME',
    'XDG_CONFIG_HOME',
  ])('%s is not a credential', (name) => {
    expect(isCredentialName(name)).toBe(false)
  })
})

describe('withholdCredentials', () => {
  const env = { GH_TOKEN: 'g', AWS_SECRET_ACCESS_KEY: 'a', gh_token: 'lower', PATH: '/bin' }

  it('keeps named pass-throughs exactly on POSIX and reports both lists, sorted', () => {
    expect(withholdCredentials(env, ['GH_TOKEN'], 'linux')).toEqual({
      env: { GH_TOKEN: 'g', PATH: '/bin' },
      withheldKeys: ['AWS_SECRET_ACCESS_KEY', 'gh_token'],
      passedThroughKeys: ['GH_TOKEN'],
    })
  })

  it('matches pass-through names case-insensitively on Windows, where Gh_Token is GH_TOKEN', () => {
    const result = withholdCredentials({ Gh_Token: 'g', PATH: 'C:\\' }, ['GH_TOKEN'], 'win32')
    expect(result.env).toEqual({ Gh_Token: 'g', PATH: 'C:\\' })
    expect(result.passedThroughKeys).toEqual(['Gh_Token'])
  })
})
