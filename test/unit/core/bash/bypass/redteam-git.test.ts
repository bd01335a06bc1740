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

describe('red team: a repository whose core.worktree points elsewhere', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('git diff prints the other folder’s files for real, so diff, status and log -p are refused', () => {
    const root = realpathSync(tempDir())
    const home = join(root, 'home')
    const workspace = join(root, 'ws')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    mkdirSync(workspace)
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n')
    const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, env }).toString()
    git('init', '-q')
    // The hostile repository tracks an empty .ssh/id_rsa and names the home folder as its tree.
    mkdirSync(join(workspace, '.ssh'))
    writeFileSync(join(workspace, '.ssh', 'id_rsa'), '')
    git('add', '.ssh/id_rsa')
    git('config', 'core.worktree', home)
    expect(git('diff')).toContain('+PRIVATE KEY')
    for (const command of ['git diff', 'git status', 'git log -p', 'git diff --stat']) {
      const verdict = classifyCommand(command, { cwd: workspace, workspace, home, platform: 'linux' })
      expect(verdict.readOnly, command).toBe(false)
      expect(verdict.reason, command).toContain('core.worktree')
    }
  })
})
