import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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

describe('what git status reaches, wherever the index or the nesting keeps it (fifth review)', () => {
  /** `levels` repositories, each the submodule (gitlink and submodule.<name>.url) of the one above. */
  function nestedChain(root: string, levels: number): string[] {
    const dirs = [root]
    for (let level = 1; level < levels; level++) dirs.push(join(dirs[level - 1]!, `s${level}`))
    for (const dir of dirs) {
      mkdirSync(dir, { recursive: true })
      git(dir, 'init', '-q')
    }
    for (let level = levels - 1; level >= 0; level--) {
      const dir = dirs[level]!
      writeFileSync(join(dir, 'f'), `level ${level}`)
      git(dir, 'add', 'f')
      const child = dirs[level + 1]
      if (child) {
        const name = `s${level + 1}`
        const head = git(child, 'rev-parse', 'HEAD').trim()
        git(dir, 'update-index', '--add', '--cacheinfo', `160000,${head},${name}`)
        git(dir, 'config', `submodule.${name}.url`, `./${name}`)
      }
      git(dir, 'commit', '-qm', `level ${level}`)
    }
    return dirs
  }

  it.each([4, 5])(
    'a program in a submodule %i levels down is refused, as git status really runs it',
    (levels) => {
      const root = tempDir()
      const dirs = nestedChain(root, levels)
      const marker = join(root, 'deep-fsmonitor-ran')
      writeFileSync(join(root, 'hook.sh'), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 })
      git(dirs.at(-1)!, 'config', 'core.fsmonitor', join(root, 'hook.sh'))
      const verdict = classifyCommand('git status', { cwd: root, platform: 'linux' })
      expect(verdict.readOnly, verdict.reason).toBe(false)
      expect(existsSync(marker)).toBe(false)
      writeFileSync(join(dirs.at(-1)!, 'f'), 'changed')
      execFileSync('git', ['status', '--short'], { cwd: root, stdio: 'ignore' })
      expect(existsSync(marker)).toBe(true)
    },
  )

  it('a clean chain as deep as the check goes still runs at once; one level more is refused, unread', () => {
    const root = tempDir()
    nestedChain(root, 4)
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' }).readOnly).toBe(true)
    const deeper = tempDir()
    nestedChain(deeper, 5)
    expect(classifyCommand('git status', { cwd: deeper, platform: 'linux' })).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('submodules nested more than 3 deep'),
    })
  })

  it('a split index keeps its gitlinks in sharedindex.<id>: they are read there, and the program refused', () => {
    const root = superprojectWithNestedRepository(tempDir())
    git(root, 'commit', '-qm', 'top')
    git(root, 'update-index', '--split-index')
    // The index itself now holds no entries at all: only the link to its shared part.
    expect(git(root, 'ls-files', '--stage').split('\n').filter(Boolean)).toHaveLength(4)
    expect(readIndexGitlinks(join(root, '.git', 'index'))).toEqual(['sub'])
    const marker = join(root, 'split-fsmonitor-ran')
    writeFileSync(join(root, 'hook.sh'), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 })
    git(join(root, 'sub'), 'config', 'core.fsmonitor', join(root, 'hook.sh'))
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' })).toMatchObject({
      readOnly: false,
      reason: 'git config core.fsmonitor in sub/.git/config runs a program',
    })
    writeFileSync(join(root, 'sub', 'f'), 'changed')
    execFileSync('git', ['status', '--short'], { cwd: root, stdio: 'ignore' })
    expect(existsSync(marker)).toBe(true)
  })

  it('a tracked .env in a split index is still known, so git grep asks as it did before the split', () => {
    const root = tempDir()
    git(root, 'init', '-q')
    writeFileSync(join(root, '.env'), 'K=SECRET-7f1\n')
    writeFileSync(join(root, 'a.txt'), 'a\n')
    git(root, 'add', '.env', 'a.txt')
    git(root, 'commit', '-qm', 'c')
    const before = classifyCommand('git grep SECRET', { cwd: root, workspace: root, platform: 'linux' })
    expect(before.asks?.length ?? 0, before.reason).toBeGreaterThan(0)
    git(root, 'update-index', '--split-index')
    expect(git(root, 'grep', 'SECRET')).toContain('SECRET-7f1')
    const after = classifyCommand('git grep SECRET', { cwd: root, workspace: root, platform: 'linux' })
    expect(after.asks).toEqual(before.asks)
  })

  it('a split index whose shared part is gone is refused, not read as empty', () => {
    const root = superprojectWithNestedRepository(tempDir())
    git(root, 'update-index', '--split-index')
    for (const name of readdirSync(join(root, '.git')).filter((n) => n.startsWith('sharedindex.'))) {
      rmSync(join(root, '.git', name))
    }
    expect(readIndexGitlinks(join(root, '.git', 'index'))).toEqual({
      problem: expect.stringContaining('is a split index whose shared part'),
    })
  })
})
