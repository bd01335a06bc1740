import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { forgetLoginShellEnvCaptures } from '../../../src/main/core/env/login-shell-capture'
import { type FakeHome, makeFakeHome, PROFILE_SOURCING_BASHRC } from '../../fixtures/shell/fake-home'
import { runCliCaptured } from './run-cli'

let home: FakeHome | undefined
afterEach(() => {
  home?.remove()
  home = undefined
  forgetLoginShellEnvCaptures()
})

/** The shared in-process runner; only the environment differs per test. */
const cli = (argv: string[], env: NodeJS.ProcessEnv) => runCliCaptured(argv, { env })

describe('shellgate env', () => {
  it('prints capture status and sealed names as JSON, never a proxy password or a secret value', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc':
        'export JAVA_HOME=/opt/jdk\nexport ALL_PROXY=socks5://rcuser:rcpass@socks:1080\nexport AWS_SECRET_ACCESS_KEY=awssecret\n',
    })
    const { code, stdout, stderr } = await cli(['env', '--json'], {
      HOME: home.home,
      SHELLGATE_HOME: home.path('.shellgate'),
      SHELL: '/bin/bash',
      PATH: '/usr/bin:/bin',
      HTTPS_PROXY: 'http://alice:s3cret@proxy.corp:3128',
      SSL_CERT_FILE: '/etc/corp-ca.pem',
      NODE_ENV: 'production',
      AWS_SECRET_ACCESS_KEY: 'parentsecret',
    })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    for (const secret of [
      's3cret',
      'alice',
      'rcpass',
      'awssecret',
      'parentsecret',
      'corp-ca.pem',
      '/opt/jdk',
    ]) {
      expect(stdout).not.toContain(secret)
    }
    const report = JSON.parse(stdout)
    expect(report.loginShell).toMatchObject({
      status: 'captured',
      shell: '/bin/bash',
      sealedKeys: ['ALL_PROXY'],
    })
    expect(report.loginShell.keys).toContain('JAVA_HOME')
    expect(report.loginShell.keys).not.toContain('AWS_SECRET_ACCESS_KEY')
    expect(typeof report.loginShell.durationMs).toBe('number')
    expect(report.entry).toMatchObject({
      sealedKeys: ['HTTPS_PROXY', 'SSL_CERT_FILE'],
      droppedKeys: ['NODE_ENV'],
    })
    // Sealed from the entry and from the rc files alike: the children get both back.
    expect(report.sealed).toEqual({
      HTTPS_PROXY: 'http://***@proxy.corp:3128',
      SSL_CERT_FILE: '(set)',
      ALL_PROXY: 'socks5://***@socks:1080',
    })
    expect(report.children).toMatchObject({
      proxy: 'http://***@proxy.corp:3128',
      noProxy: 'localhost,127.0.0.1,::1',
    })
  })

  it('a proxy and CA set only in the rc files are what the children get, as the app runs them', async () => {
    home = makeFakeHome({
      '.profile': PROFILE_SOURCING_BASHRC,
      '.bashrc':
        'export HTTPS_PROXY=http://rcuser:rcpass@rc-proxy.corp:8080\nexport NODE_EXTRA_CA_CERTS=/etc/rc-ca.pem\n',
    })
    const { code, stdout } = await cli(['env', '--json'], {
      HOME: home.home,
      SHELLGATE_HOME: home.path('.shellgate'),
      SHELL: '/bin/bash',
      PATH: '/usr/bin:/bin',
    })
    expect(code).toBe(0)
    expect(stdout).not.toContain('rcpass')
    const report = JSON.parse(stdout)
    expect(report.entry.sealedKeys).toEqual([])
    expect(report.sealed).toEqual({
      HTTPS_PROXY: 'http://***@rc-proxy.corp:8080',
      NODE_EXTRA_CA_CERTS: '(set)',
    })
    expect(report.children).toMatchObject({ proxy: 'http://***@rc-proxy.corp:8080', caCertFile: '(set)' })
  })

  it('explains a $SHELL that does not exist and an invalid SHELLGATE_HTTP_PROXY, and still succeeds', async () => {
    home = makeFakeHome()
    const { code, stdout } = await cli(['env'], {
      HOME: home.home,
      SHELLGATE_HOME: home.path('.shellgate'),
      SHELL: '/no/such/zsh',
      PATH: '/usr/bin:/bin',
      SHELLGATE_HTTP_PROXY: 'http://bob:pw@',
    })
    expect(code).toBe(0)
    expect(stdout).toContain('$SHELL /no/such/zsh is not an executable file')
    expect(stdout).toMatch(/Problem: SHELLGATE_HTTP_PROXY: .* is not a URL/)
    expect(stdout).not.toContain('pw@')
  })

  it('applies network settings from settings.json to what children get, and reports a CA file that is missing', async () => {
    home = makeFakeHome()
    home.write(
      '.shellgate/settings.json',
      JSON.stringify({
        network: { httpProxy: 'http://dave:pw9@settings-proxy:8080', caCertFile: '/no/such/ca.pem' },
      }),
    )
    const { code, stdout } = await cli(['env', '--json'], {
      HOME: home.home,
      SHELLGATE_HOME: home.path('.shellgate'),
      SHELL: '/bin/sh',
      PATH: '/usr/bin:/bin',
    })
    expect(code).toBe(0)
    expect(stdout).not.toContain('pw9')
    const report = JSON.parse(stdout)
    expect(report.children.proxy).toBe('http://***@settings-proxy:8080')
    expect(report.children.problems).toEqual([
      'network.caCertFile: /no/such/ca.pem is not a readable file; children keep the certificates from the environment',
    ])
  })

  it('rejects arguments with a one-line usage error', async () => {
    const { code, stderr } = await cli(['env', 'extra'], {})
    expect(code).toBe(2)
    expect(stderr).toBe('shellgate env: takes no arguments\n')
  })

  it('the real binary seals at entry: the sealed proxy is reported, NODE_ENV dropped', () => {
    home = makeFakeHome()
    const run = spawnSync('node_modules/.bin/tsx', ['src/main/cli.ts', 'env', '--json'], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH,
        HOME: home.home,
        SHELLGATE_HOME: home.path('.shellgate'),
        SHELL: '/bin/sh',
        http_proxy: 'http://carol:pa55@p:1',
        NODE_ENV: 'development',
      },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.stderr).toBe('')
    expect(run.stdout).not.toContain('pa55')
    const report = JSON.parse(run.stdout)
    expect(report.entry).toEqual({ sealedKeys: ['http_proxy'], droppedKeys: ['NODE_ENV'] })
    expect(report.sealed).toEqual({ http_proxy: 'http://***@p:1' })
  })
})
