import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { readIndexGitlinks } from '../../../../../src/main/core/bash/git-safety/index-gitlinks'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { writeGitDir, writeRepository } from './repository-fixtures'

const tempDir = tempDirsRemovedAfterEach()
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  })

/** A superproject whose index records `sub` as a gitlink to a nested repository, without .gitmodules. */
function superprojectWithNestedRepository(root: string, indexVersion = 2, objectFormat = 'sha1'): string {
  git(root, 'init', '-q', `--object-format=${objectFormat}`)
  for (const name of ['a.txt', 'b.txt', 'z.txt']) writeFileSync(join(root, name), name)
  mkdirSync(join(root, 'sub'))
  git(join(root, 'sub'), 'init', '-q', `--object-format=${objectFormat}`)
  writeFileSync(join(root, 'sub', 'f'), 'x')
  git(join(root, 'sub'), 'add', 'f')
  git(join(root, 'sub'), 'commit', '-qm', 'sub')
  git(root, 'add', 'a.txt', 'b.txt', 'z.txt')
  const head = git(join(root, 'sub'), 'rev-parse', 'HEAD').trim()
  git(root, 'update-index', '--add', '--cacheinfo', `160000,${head},sub`)
  git(root, 'update-index', '--index-version', String(indexVersion))
  return root
}

describe('submodules git status descends into', () => {
  it.each([
    [2, 'sha1'],
    [3, 'sha1'],
    [4, 'sha1'],
    [2, 'sha256'],
    [4, 'sha256'],
  ])('finds gitlinks in an index of version %i with %s ids', (version, objectFormat) => {
    const root = superprojectWithNestedRepository(tempDir(), version, objectFormat)
    expect(readIndexGitlinks(join(root, '.git', 'index'))).toEqual(['sub'])
  })

  it('refuses git when a nested repository’s config runs a program, which git status really runs', () => {
    const root = superprojectWithNestedRepository(tempDir())
    const marker = join(root, 'nested-hook-ran')
    writeFileSync(join(root, 'hook.sh'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    git(join(root, 'sub'), 'config', 'core.fsmonitor', join(root, 'hook.sh'))

    const verdict = classifyCommand('git status', { cwd: root, platform: 'linux' })
    expect(verdict).toMatchObject({
      readOnly: false,
      reason: 'git config core.fsmonitor in sub/.git/config runs a program',
    })
    expect(existsSync(marker)).toBe(false)

    writeFileSync(join(root, 'sub', 'f'), 'changed')
    execFileSync('git', ['status', '--short'], { cwd: root, stdio: 'ignore' })
    expect(existsSync(marker)).toBe(true)
  })

  it('refuses git when a repository under .git/modules runs a program', () => {
    const root = writeRepository(tempDir())
    writeGitDir(join(root, '.git', 'modules', 'libs', 'inner'), '[core]\n\tpager = ./evil\n')
    expect(classifyCommand('git log', { cwd: root, platform: 'linux' })).toMatchObject({
      readOnly: false,
      reason: 'git config core.pager in .git/modules/libs/inner/config runs a program',
    })
  })

  it('allows git with clean or unpopulated submodules', () => {
    const root = superprojectWithNestedRepository(tempDir())
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' }).readOnly).toBe(true)
    writeGitDir(join(root, '.git', 'modules', 'other'))
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' }).readOnly).toBe(true)
  })

  it('refuses an index it cannot read rather than guessing', () => {
    const root = writeRepository(tempDir())
    writeFileSync(join(root, '.git', 'index'), 'DIRC\0\0\0\x07\0\0\0\x01')
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' })).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('index version 7 is not supported'),
    })
  })
})
