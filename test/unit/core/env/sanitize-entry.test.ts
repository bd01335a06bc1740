import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import {
  readSealedEnv,
  sanitizeEntryEnv,
  sanitizeEntryEnvDetailed,
  sanitizeProcessEnvInPlace,
} from '../../../../src/main/core/env/sanitize-entry'
import { TOOL_ENV_PASSTHROUGH_KEY } from '../../../../src/main/core/env/sanitize-keys'

const parent = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  NODE_ENV: 'production',
  ELECTRON_RUN_AS_NODE: '1',
  NODE_NO_WARNINGS: '1',
  HTTP_PROXY: 'http://user:pw@proxy:3128',
  https_proxy: 'http://proxy:3129',
  ALL_PROXY: 'socks5://proxy:1080',
  no_proxy: 'internal.example',
  NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
  SSL_CERT_FILE: '/etc/ssl.pem',
  SSL_CERT_DIR: '/etc/ssl/certs',
  REQUESTS_CA_BUNDLE: '/etc/req.pem',
  CURL_CA_BUNDLE: '/etc/curl.pem',
  git_ssl_cainfo: '/etc/git.pem',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector',
  SHELLGATE_TELEMETRY_ID: 'abc',
  npm_config_https_proxy: 'http://npm-proxy:1',
  npm_config_cafile: '/etc/npm.pem',
  YARN_HTTPS_PROXY: 'http://yarn-proxy:1',
  YARN_HTTPS_CA_FILE_PATH: '/etc/yarn-ca.pem',
  YARN_ENABLE_STRICT_SSL: 'false',
  NIX_SSL_CERT_FILE: '/etc/nix-ca.pem',
  pnpm_config_proxy: 'http://pnpm-proxy:1',
  npm_config_registry: 'https://registry.npmjs.org/',
  BASH_ENV: '/tmp/evil.sh',
  ENV: '/tmp/evil-sh.sh',
  AWS_PROFILE: 'dev',
}

describe('sanitizeEntryEnv', () => {
  it('seals proxies, NO_PROXY, CA and package-manager network settings under their original names', () => {
    const { env, sealedKeys } = sanitizeEntryEnvDetailed(parent, 'linux')
    const sealedNames = [
      'ALL_PROXY',
      'CURL_CA_BUNDLE',
      'HTTP_PROXY',
      'NIX_SSL_CERT_FILE',
      'NODE_EXTRA_CA_CERTS',
      'REQUESTS_CA_BUNDLE',
      'SSL_CERT_DIR',
      'SSL_CERT_FILE',
      'YARN_ENABLE_STRICT_SSL',
      'YARN_HTTPS_CA_FILE_PATH',
      'YARN_HTTPS_PROXY',
      'git_ssl_cainfo',
      'https_proxy',
      'no_proxy',
      'npm_config_cafile',
      'npm_config_https_proxy',
      'pnpm_config_proxy',
    ]
    expect(sealedKeys).toEqual(sealedNames)
    for (const key of sealedNames) expect(env[key]).toBeUndefined()
    const sealed = readSealedEnv(env)
    for (const key of sealedNames) expect(sealed[key]).toBe(parent[key as keyof typeof parent])
  })

  it('drops NODE_ENV, Electron/Node switches, telemetry and BASH_ENV/ENV without sealing them', () => {
    const { env, droppedKeys } = sanitizeEntryEnvDetailed(parent, 'linux')
    expect(droppedKeys).toEqual([
      'BASH_ENV',
      'ELECTRON_RUN_AS_NODE',
      'ENV',
      'NODE_ENV',
      'NODE_NO_WARNINGS',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'SHELLGATE_TELEMETRY_ID',
    ])
    const sealed = readSealedEnv(env)
    for (const key of droppedKeys) {
      expect(env[key]).toBeUndefined()
      expect(sealed[key]).toBeUndefined()
    }
  })

  it('keeps everything else, package-manager settings that are not network ones included', () => {
    const env = sanitizeEntryEnv(parent, 'linux')
    expect(env.PATH).toBe('/usr/bin:/bin')
    expect(env.AWS_PROFILE).toBe('dev')
    expect(env.npm_config_registry).toBe('https://registry.npmjs.org/')
  })

  it('is idempotent: a second pass keeps the same sealed values', () => {
    const once = sanitizeEntryEnv(parent, 'linux')
    const twice = sanitizeEntryEnv(once, 'linux')
    expect(readSealedEnv(twice)).toEqual(readSealedEnv(once))
    expect(twice).toEqual(once)
  })

  it('opens an inherited passthrough only for sealable keys, and a direct value wins over it', () => {
    const inherited = JSON.stringify({
      HTTP_PROXY: 'http://old:1',
      AWS_SECRET_ACCESS_KEY: 'x',
      LD_PRELOAD: '/evil.so',
    })
    const env = sanitizeEntryEnv(
      { [TOOL_ENV_PASSTHROUGH_KEY]: inherited, HTTPS_PROXY: 'http://new:2' },
      'linux',
    )
    expect(readSealedEnv(env)).toEqual({ HTTP_PROXY: 'http://old:1', HTTPS_PROXY: 'http://new:2' })
    const direct = sanitizeEntryEnv(
      { [TOOL_ENV_PASSTHROUGH_KEY]: inherited, HTTP_PROXY: 'http://new:3' },
      'linux',
    )
    expect(readSealedEnv(direct)).toEqual({ HTTP_PROXY: 'http://new:3' })
  })

  it('treats a malformed passthrough as sealing nothing', () => {
    for (const raw of ['{', '[]', '"x"', 'null', '{"HTTP_PROXY": 5}']) {
      const env = sanitizeEntryEnv({ [TOOL_ENV_PASSTHROUGH_KEY]: raw, PATH: '/bin' }, 'linux')
      expect(env).toEqual({ PATH: '/bin' })
    }
  })

  it('rewrites process.env in place, so what Node itself hands a child is already clean', () => {
    const saved = { ...process.env }
    try {
      process.env.HTTP_PROXY = 'http://p:1'
      process.env.NODE_ENV = 'test'
      sanitizeProcessEnvInPlace(process.env, 'linux')
      // spawnSync without `env` passes Node's own process.env: it is the object that must change.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions
      const seen = spawnSync('/bin/sh', ['-c', 'echo "${HTTP_PROXY-unset}|${NODE_ENV-unset}"'])
      expect(seen.stdout.toString()).toBe('unset|unset\n')
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
      Object.assign(process.env, saved)
    }
  })

  it('rewrites a process.env-like object in place', () => {
    const processEnv: NodeJS.ProcessEnv = { PATH: '/bin', HTTP_PROXY: 'http://p:1', NODE_ENV: 'test' }
    const { sealedKeys, droppedKeys } = sanitizeProcessEnvInPlace(processEnv, 'linux')
    expect(sealedKeys).toEqual(['HTTP_PROXY'])
    expect(droppedKeys).toEqual(['NODE_ENV'])
    expect(Object.keys(processEnv).sort()).toEqual(['PATH', TOOL_ENV_PASSTHROUGH_KEY])
  })
})
