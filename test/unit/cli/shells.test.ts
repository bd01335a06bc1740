import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from './run-cli'

/** The shared in-process runner; only the environment differs per test. */
const cli = (argv: string[], env: NodeJS.ProcessEnv) => runCliCaptured(argv, { env })

let dataDir: string
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'shellgate-shells-cli-'))
})
afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

describe('shellgate shells', () => {
  it('lists the real bash and zsh here and selects $SHELL with why, as JSON', async () => {
    const { code, stdout } = await cli(['shells', '--json'], {
      SHELL: '/bin/bash',
      PATH: '/usr/bin:/bin',
      SHELLGATE_HOME: dataDir,
    })
    expect(code).toBe(0)
    const found = JSON.parse(stdout)
    expect(found.selection).toEqual({
      dialect: 'bash',
      path: '/bin/bash',
      source: 'env-shell',
      reason: '$SHELL is bash',
      envOverlay: { GIT_EDITOR: 'true', SHELL: '/bin/bash' },
    })
    expect(found.candidates.map((c: { dialect: string }) => c.dialect)).toEqual(
      expect.arrayContaining(['bash', 'zsh']),
    )
    expect(found.problems).toEqual([])
  })

  it('marks the selection in text and reports a $SHELL that does not exist', async () => {
    const { code, stdout } = await cli(['shells'], {
      SHELL: '/gone/bash',
      PATH: '/usr/bin:/bin',
      SHELLGATE_HOME: dataDir,
    })
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Selected: bash \/\S+\/bash \(\$SHELL is not bash or zsh; first bash found in /)
    expect(stdout).toMatch(/^\* bash /m)
    expect(stdout).toContain('Problem: $SHELL /gone/bash does not exist')
  })

  it('follows the shell setting in SHELLGATE_HOME/settings.json', async () => {
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ shell: { kind: 'zsh' } }))
    const { stdout } = await cli(['shells', '--json'], {
      SHELL: '/bin/bash',
      PATH: '/usr/bin:/bin',
      SHELLGATE_HOME: dataDir,
    })
    expect(JSON.parse(stdout).selection).toMatchObject({ dialect: 'zsh', source: 'setting' })
  })

  it('rejects unknown flags with a one-line usage error', async () => {
    const { code, stderr } = await cli(['shells', '--nope'], {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/^shellgate shells: Unknown option '--nope'\n$/)
  })
})
