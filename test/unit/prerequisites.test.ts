import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/**
 * Decided (issue 15.20): tests that need zsh are not skipped without it; `.ci/run` installs zsh,
 * because the snapshot, discovery and login-capture tests are only worth something against the real
 * shell. This names the cause in one place when a machine lacks it, instead of leaving a dozen
 * unrelated-looking failures to decode.
 */
describe('what the unit suite runs against', () => {
  it.each(['zsh', 'bash', 'sh', 'git'])('%s is installed (`.ci/run` installs it)', (program) => {
    const found = spawnSync('sh', ['-c', `command -v ${program}`])
    expect(found.status, `${program} is missing: run .ci/run, or apt-get install ${program}`).toBe(0)
  })
})
