import { describe, expect, it } from 'vitest'
import {
  checkSandboxSettings,
  isAllowlistDomain,
} from '../../../../src/main/core/sandbox/sandbox-settings-check'
import { defaultUserSettings } from '../../../../src/shared/settings'

const defaults = defaultUserSettings().sandbox

describe('sandbox settings: bad input gets a clear message', () => {
  it.each([
    ['registry.npmjs.org', true],
    ['*.github.com', true],
    ['localhost', true],
    ['http://x.com/', false],
    ['x.com:443', false],
    ['not a domain', false],
    ['10.0.0.1', false],
    ['*', false],
    ['', false],
  ])('allowlist entry %j is a domain: %s', (entry, ok) => expect(isAllowlistDomain(entry)).toBe(ok))

  it('names each bad entry, a missing cache and a relative path', () => {
    const problems = checkSandboxSettings(
      {
        ...defaults,
        allowlist: ['ok.example', 'x.com:443'],
        toolCaches: ['/nonexistent/cache', 'rel/cache'],
        hiddenPaths: ['secrets'],
        readablePaths: ['docs'],
        allowedSockets: ['/nonexistent/docker.sock'],
      },
      '/h',
    )
    expect(problems.map((p) => [p.code, p.field, p.entry])).toEqual([
      ['invalid_domain', 'allowlist', 'x.com:443'],
      ['missing_cache', 'toolCaches', '/nonexistent/cache'],
      ['relative_path', 'toolCaches', 'rel/cache'],
      ['relative_path', 'hiddenPaths', 'secrets'],
      ['relative_path', 'readablePaths', 'docs'],
      ['not_a_socket', 'allowedSockets', '/nonexistent/docker.sock'],
    ])
  })
})
