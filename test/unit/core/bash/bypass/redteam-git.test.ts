import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

describe('red team: git -C ~/x is a folder outside the workspace', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('git -C ~/evil show HEAD runs that repository’s textconv for real, and is refused', () => {
    const root = realpathSync(tempDir())
    const home = join(root, 'home')
    const evil = join(home, 'evil')
    const workspace = join(root, 'ws')
    mkdirSync(evil, { recursive: true })
    mkdirSync(workspace)
    const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: evil, env })
    git('init', '-q')
    writeFileSync(join(evil, 'f'), 'a\n')
    git('add', 'f')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'm')
    writeFileSync(join(evil, '.git', 'info', 'attributes'), '* diff=x\n')
    git('config', 'diff.x.textconv', `touch ${join(root, 'marker')}; cat`)
    execFileSync('bash', ['-c', 'git -C ~/evil show HEAD'], { cwd: workspace, env })
    expect(existsSync(join(root, 'marker'))).toBe(true)
    for (const command of ['git -C ~/evil show HEAD', 'git -C ~ status', 'git -C ~other status']) {
      const verdict = classifyCommand(command, { cwd: workspace, workspace, home, platform: 'linux' })
      expect(verdict.readOnly, command).toBe(false)
    }
  })
})
