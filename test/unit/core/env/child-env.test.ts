import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildChildEnv } from '../../../../src/main/core/env/child-env'
import { DEFAULT_NO_PROXY } from '../../../../src/main/core/env/network-egress-env'
import { sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'
import { TOOL_ENV_PASSTHROUGH_KEY } from '../../../../src/main/core/env/sanitize-keys'

const dir = mkdtempSync(join(tmpdir(), 'shellgate-child-env-'))
const caFile = join(dir, 'ca.pem')
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\n')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const runtime = sanitizeEntryEnv(
  {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HTTP_PROXY: 'http://user:pw@proxy:3128',
    no_proxy: 'corp',
    SSL_CERT_FILE: '/etc/x.pem',
  },
  'linux',
)

describe('buildChildEnv', () => {
  it('takes proxies out of the runtime env and gives them back to children under their original names', () => {
    expect(runtime.HTTP_PROXY).toBeUndefined()
    const { env, problems } = buildChildEnv(runtime, { platform: 'linux' })
    expect(problems).toEqual([])
    expect(env[TOOL_ENV_PASSTHROUGH_KEY]).toBeUndefined()
    expect(env.HTTP_PROXY).toBe('http://user:pw@proxy:3128')
    expect(env.no_proxy).toBe('corp')
    expect(env.SSL_CERT_FILE).toBe('/etc/x.pem')
    // A real child sees them, and does not see the sealed JSON.
    const out = spawnSync(
      '/bin/sh',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
      ['-c', 'printf "%s|%s|%s" "$HTTP_PROXY" "$no_proxy" "${SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON-unset}"'],
      { env },
    )
    expect(out.stdout.toString()).toBe('http://user:pw@proxy:3128|corp|unset')
  })

  it('lets network.httpProxy override all six proxy variables, adding http:// when there is no scheme', () => {
    const { env } = buildChildEnv(runtime, {
      platform: 'linux',
      network: { httpProxy: 'settings-proxy:8080' },
    })
    for (const key of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) {
      expect(env[key]).toBe('http://settings-proxy:8080')
    }
  })

  it('reads SHELLGATE_HTTP_PROXY, SHELLGATE_NO_PROXY and SHELLGATE_CA_CERT when settings are empty', () => {
    const env = buildChildEnv(
      {
        PATH: '/bin',
        SHELLGATE_HTTP_PROXY: 'https://p.example:443',
        SHELLGATE_NO_PROXY: '.corp',
        SHELLGATE_CA_CERT: caFile,
      },
      { platform: 'linux' },
    ).env
    expect(env.https_proxy).toBe('https://p.example:443')
    expect(env.NO_PROXY).toBe('.corp')
    expect(env.no_proxy).toBe('.corp')
    for (const key of [
      'NODE_EXTRA_CA_CERTS',
      'SSL_CERT_FILE',
      'REQUESTS_CA_BUNDLE',
      'CURL_CA_BUNDLE',
      'GIT_SSL_CAINFO',
    ]) {
      expect(env[key]).toBe(caFile)
    }
  })

  it('defaults NO_PROXY to the loopback names when a proxy is set and no NO_PROXY exists', () => {
    const env = buildChildEnv(
      { PATH: '/bin' },
      { platform: 'linux', network: { httpProxy: 'http://p:1' } },
    ).env
    expect(env.NO_PROXY).toBe(DEFAULT_NO_PROXY)
    expect(env.no_proxy).toBe(DEFAULT_NO_PROXY)
    const none = buildChildEnv({ PATH: '/bin' }, { platform: 'linux' }).env
    expect(none.NO_PROXY).toBeUndefined()
  })

  it('reports a settings proxy that is not a URL without leaking its password, and keeps the sealed proxy', () => {
    const { env, problems } = buildChildEnv(runtime, {
      platform: 'linux',
      network: { httpProxy: 'http://bob:hunter2@' },
    })
    expect(problems).toHaveLength(1)
    expect(problems[0]?.code).toBe('invalid_proxy')
    expect(problems[0]?.message).toContain('network.httpProxy')
    expect(problems[0]?.message).not.toContain('hunter2')
    expect(env.HTTP_PROXY).toBe('http://user:pw@proxy:3128')
    const ftp = buildChildEnv(runtime, { platform: 'linux', network: { httpProxy: 'ftp://p:21' } })
    expect(ftp.problems[0]?.message).toMatch(/scheme ftp: is not supported/)
  })

  it('reports a CA file that does not exist and keeps the inherited certificate setting', () => {
    const { env, problems } = buildChildEnv(runtime, {
      platform: 'linux',
      network: { caCertFile: join(dir, 'missing.pem') },
    })
    expect(problems).toEqual([
      {
        code: 'missing_ca_file',
        message: expect.stringContaining(`${join(dir, 'missing.pem')} is not a readable file`),
      },
    ])
    expect(env.SSL_CERT_FILE).toBe('/etc/x.pem')
    expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined()
  })

  it('never gives a child BASH_ENV or ENV, even when they were added to the runtime env later', () => {
    const env = buildChildEnv(
      { PATH: '/bin', BASH_ENV: '/x', ENV: '/y', NODE_ENV: 'dev' },
      { platform: 'linux' },
    ).env
    expect(env.BASH_ENV).toBeUndefined()
    expect(env.ENV).toBeUndefined()
    expect(env.NODE_ENV).toBeUndefined()
  })

  it('treats names case-insensitively on Windows: one spelling per variable, the overlay replaces Path', () => {
    const sealed = sanitizeEntryEnv({ Path: 'C:\\Windows', http_proxy: 'http://old:1' }, 'win32')
    const { env } = buildChildEnv(sealed, {
      platform: 'win32',
      network: { httpProxy: 'http://new:2' },
      overlay: { PATH: 'C:\\Git\\bin;C:\\Windows' },
    })
    expect(env.Path).toBeUndefined()
    expect(env.PATH).toBe('C:\\Git\\bin;C:\\Windows')
    expect(env.http_proxy).toBeUndefined()
    expect(env.HTTP_PROXY).toBe('http://new:2')
    expect(Object.keys(env).filter((k) => k.toUpperCase() === 'HTTP_PROXY')).toEqual(['HTTP_PROXY'])
    expect(env.NO_PROXY).toBe(DEFAULT_NO_PROXY)
    // Locale variables mean nothing to Windows programs; the Python ones do.
    expect(env.LANG).toBeUndefined()
    expect(env.PYTHONIOENCODING).toBe('utf-8')
  })
})
