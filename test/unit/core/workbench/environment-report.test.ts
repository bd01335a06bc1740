import { afterEach, describe, expect, it } from 'vitest'
import { forgetLoginShellEnvCaptures } from '../../../../src/main/core/env/login-shell-capture'
import { readSealedEnv, sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'
import { startRuntimeEnvironment } from '../../../../src/main/core/workbench/runtime-environment'
import { type FakeHome, makeFakeHome, PROFILE_SOURCING_BASHRC } from '../../../fixtures/shell/fake-home'

// Issue 22.8: Settings → Environment showed "Sealed keys (0)" above "Sealed at entry (9)". The
// counts it shows (env.report, the same names `shellgate env` prints) must add up to what children
// are actually given back, each name once, and a CA path is a trust anchor, never a withheld credential.

let home: FakeHome | undefined
afterEach(() => {
  home?.remove()
  home = undefined
  forgetLoginShellEnvCaptures()
})

const CA = '/etc/ssl/certs/ca-certificates.crt'

describe('env.report sealed and withheld counts', () => {
  it('counts each sealed name once, where its value came from, and lists no CA path as withheld', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc': [
        // The same value the terminal that started Shellgate had (the common case: one rc for both).
        'export HTTP_PROXY=http://127.0.0.1:3128',
        // Another value for one sealed at entry: the entry's wins, and the report says so.
        'export NODE_EXTRA_CA_CERTS=/etc/ssl/other.pem',
        // Only in the rc files: sealed from the login shell.
        'export HTTPS_PROXY=http://127.0.0.1:3129',
        `export SSL_CERT_FILE=${CA}`,
        `export npm_config_cafile=${CA}`,
        '',
      ].join('\n'),
    })
    const entry = sanitizeEntryEnv(
      {
        HOME: home.home,
        PATH: '/usr/bin:/bin',
        SHELL: '/bin/bash',
        HTTP_PROXY: 'http://127.0.0.1:3128',
        NODE_EXTRA_CA_CERTS: CA,
        GIT_SSL_CAINFO: CA,
        AWS_CA_BUNDLE: CA,
        REQUESTS_CA_BUNDLE: CA,
        PGSSLROOTCERT: CA,
        VAULT_CACERT: CA,
        AUTH_SERVICE_CA_CERT_FILE: CA,
        GITHUB_TOKEN: 'ghp_not-a-real-token',
      },
      'linux',
    )
    const environment = startRuntimeEnvironment({ env: entry, platform: 'linux', captureLoginShell: true })
    const runtime = await environment.ready()
    const report = environment.report()
    expect(report.status).toBe('captured')

    const actuallySealed = Object.keys(readSealedEnv(runtime)).sort()
    expect(report.entry.sealedKeys).toEqual([
      'GIT_SSL_CAINFO',
      'HTTP_PROXY',
      'NODE_EXTRA_CA_CERTS',
      'REQUESTS_CA_BUNDLE',
    ])
    expect(report.sealedKeys).toEqual(['HTTPS_PROXY', 'SSL_CERT_FILE', 'npm_config_cafile'])
    // The two lists partition what children get back: the numbers on the page add up.
    expect([...report.entry.sealedKeys, ...report.sealedKeys].sort()).toEqual(actuallySealed)
    expect(report.entry.sealedKeys.length + report.sealedKeys.length).toBe(actuallySealed.length)
    expect(report.messages).toEqual([
      'your startup files set NODE_EXTRA_CA_CERTS, but commands get the value Shellgate was started with',
    ])
    expect(readSealedEnv(runtime).NODE_EXTRA_CA_CERTS).toBe(CA)

    // Credentials withheld; where a tool finds its CAs is not one.
    expect(report.withheldKeys).toEqual(['GITHUB_TOKEN'])
  })
})
