import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

/**
 * Issue 21, fifth review: git follows a symlink among its own files and prints their lines, in
 * its output (status's "Last command done", worktree list's paths) and in its errors ("bad
 * shallow line", "unexpected line in packed-refs"). Every file git reads under the git dir, symlinked
 * to a secret outside the workspace, against every command that reads it: the real git prints the
 * secret for at least one of them, and the verdict never runs any of them without asking.
 */
const STATE_FILES = [
  'shallow',
  'packed-refs',
  'info/grafts',
  'info/attributes',
  'info/exclude',
  'objects/info/alternates',
  'rebase-merge/done',
  'rebase-merge/git-rebase-todo',
  'sequencer/todo',
  'worktrees/x/gitdir',
  'logs/HEAD',
  'ORIG_HEAD',
  'FETCH_HEAD',
]
const COMMANDS = [
  'git status',
  'git log --oneline',
  'git branch',
  'git worktree list',
  'git check-attr -a secret',
]
const SECRET = 'secret TOKEN_1234567890'

describe('a symlink among git’s own files is judged where it leads', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it.each(STATE_FILES)('.git/%s linked to a secret outside the workspace', (file) => {
    const root = realpathSync(tempDir())
    const home = join(root, 'home')
    const workspace = join(root, 'ws')
    mkdirSync(home)
    mkdirSync(workspace)
    writeFileSync(join(home, 'token'), `${SECRET}\n`)
    const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, env })
    git('init', '-q', '-b', 'main')
    writeFileSync(join(workspace, 'f'), 'a\n')
    git('add', 'f')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'm')
    if (file.startsWith('rebase-merge/')) {
      mkdirSync(join(workspace, '.git', 'rebase-merge'))
      writeFileSync(join(workspace, '.git', 'rebase-merge', 'onto'), git('rev-parse', 'HEAD'))
      writeFileSync(join(workspace, '.git', 'rebase-merge', 'head-name'), 'refs/heads/main\n')
      writeFileSync(join(workspace, '.git', 'rebase-merge', 'interactive'), '')
    }
    if (file.startsWith('worktrees/')) {
      mkdirSync(join(workspace, '.git', 'worktrees', 'x'), { recursive: true })
      writeFileSync(join(workspace, '.git', 'worktrees', 'x', 'HEAD'), 'ref: refs/heads/main\n')
    }
    const link = join(workspace, '.git', file)
    mkdirSync(dirname(link), { recursive: true })
    rmSync(link, { force: true })
    symlinkSync(join(home, 'token'), link)
    let printed = false
    for (const command of COMMANDS) {
      const run = spawnSync('bash', ['-c', command], { cwd: workspace, env, encoding: 'utf8' })
      if (`${run.stdout}${run.stderr}`.includes('TOKEN_1234567890')) printed = true
      const verdict = classifyCommand(command, { cwd: workspace, workspace, home, platform: 'linux' })
      const asked = !verdict.readOnly || (verdict.asks?.length ?? 0) > 0
      expect(asked, `${command}: ${verdict.reason}`).toBe(true)
    }
    // Not every file is printed by these commands (logs/HEAD, ORIG_HEAD feed others), but most are.
    if (['shallow', 'packed-refs', 'info/grafts', 'worktrees/x/gitdir', 'rebase-merge/done'].includes(file))
      expect(printed, 'the real git prints the linked secret').toBe(true)
  })
})
