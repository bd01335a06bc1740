import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * Decided (issues 15.20 and 22.1): tests that need a system program are not skipped without it;
 * one documented step installs them all, `.ci/deps` (the README's first test step, and the first
 * step of `.ci/run`), because the snapshot, discovery, login-capture and sandbox tests are only
 * worth something against the real programs. This names the cause in one place when a machine
 * lacks one, instead of leaving dozens of unrelated-looking failures to decode.
 */
const PROGRAMS = [
  'zsh',
  'bash',
  'sh',
  'git',
  'openssl',
  'ps',
  ...(process.platform === 'linux' ? ['bwrap', 'socat'] : []),
]

describe('what the test suite runs against', () => {
  it.each(PROGRAMS)('%s is installed (`.ci/deps` installs it)', (program) => {
    const found = spawnSync('sh', ['-c', `command -v ${program}`])
    expect(
      found.status,
      `${program} is missing: run .ci/deps (it installs every program the tests need)`,
    ).toBe(0)
  })

  it('a Chromium for the e2e tests is there (`.ci/deps` installs it, or set CHROME_PATH)', () => {
    const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
    expect(
      candidates.some((path) => path && existsSync(path)),
      'no Chromium: run .ci/deps, or set CHROME_PATH to a Chromium binary',
    ).toBe(true)
  })
})
