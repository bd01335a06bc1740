import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  isAllowlistedLoginEnvKey,
  LOGIN_ENV_ALLOWLIST,
} from '../../../../src/main/core/env/login-env-allowlist'
import { patchPathWithoutShell } from '../../../../src/main/core/env/path-patch'
import { redactProxyUrl } from '../../../../src/main/core/env/redact-env'

describe('the login-env allowlist', () => {
  // Behaviour, not the table's size (issue 15.21): every listed pattern admits what it names, and an
  // exact name is not a prefix.
  it('admits each listed name exactly, each `*` pattern by prefix, and no longer spelling of an exact name', () => {
    const prefixes = LOGIN_ENV_ALLOWLIST.filter((e) => e.pattern.endsWith('*')).map((e) =>
      e.pattern.slice(0, -1),
    )
    for (const { pattern, why } of LOGIN_ENV_ALLOWLIST) {
      expect(why.length, pattern).toBeGreaterThan(5)
      if (pattern.endsWith('*')) {
        expect(isAllowlistedLoginEnvKey(`${pattern.slice(0, -1)}SOMETHING`), pattern).toBe(true)
        continue
      }
      expect(isAllowlistedLoginEnvKey(pattern), pattern).toBe(true)
      const longer = `${pattern}_EXTRA`
      if (!prefixes.some((prefix) => longer.startsWith(prefix))) {
        expect(isAllowlistedLoginEnvKey(longer), longer).toBe(false)
      }
    }
  })

  it('adopts locations and choices, never credentials that share a prefix', () => {
    for (const key of [
      'KUBECONFIG',
      'SSH_AUTH_SOCK',
      'AWS_PROFILE',
      'CONDA_PREFIX',
      'MISE_DATA_DIR',
      'HOMEBREW_PREFIX',
    ]) {
      expect(isAllowlistedLoginEnvKey(key), key).toBe(true)
    }
    for (const key of [
      'AWS_SECRET_ACCESS_KEY',
      'UV_INDEX_X_PASSWORD',
      'HOMEBREW_GITHUB_API_TOKEN',
      'GITHUB_TOKEN',
      'PS1',
      'TERM',
    ]) {
      expect(isAllowlistedLoginEnvKey(key), key).toBe(false)
    }
  })
})

describe('redactProxyUrl', () => {
  it('cuts credentials out of proxy URLs, with or without a scheme', () => {
    expect(redactProxyUrl('http://u:p@host:3128')).toBe('http://***@host:3128')
    expect(redactProxyUrl('socks5h://token@host')).toBe('socks5h://***@host')
    expect(redactProxyUrl('u:p@host:1')).toBe('***@host:1')
    expect(redactProxyUrl('http://host:1')).toBe('http://host:1')
  })
})

describe('patchPathWithoutShell', () => {
  it('puts existing package-manager directories first, adds nothing twice and nothing missing', () => {
    const exists = (dir: string) =>
      ['/h/.local/bin', '/h/.cargo/bin', '/opt/homebrew/bin', '/usr/bin'].includes(dir)
    expect(
      patchPathWithoutShell('/usr/bin:/h/.cargo/bin', {
        home: '/h',
        platform: 'darwin',
        isDirectory: exists,
      }),
    ).toBe('/h/.local/bin:/opt/homebrew/bin:/usr/bin:/h/.cargo/bin')
    expect(patchPathWithoutShell('', { home: '/h', platform: 'linux', isDirectory: exists })).toBe(
      '/h/.local/bin:/h/.cargo/bin:/usr/bin',
    )
    const real = patchPathWithoutShell(undefined, {
      home: '/nonexistent',
      platform: 'linux',
      isDirectory: (d) => statSync(d, { throwIfNoEntry: false })?.isDirectory() ?? false,
    })
    expect(real.split(':')).toContain('/usr/bin')
  })
})
