import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import {
  checkGitRuntimeSafety,
  MAX_GITDIR_FILE_BYTES,
} from '../../../../../src/main/core/bash/git-safety/git-runtime-safety'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { writeGitDir, writeLinkedWorktree, writeRepository, writeSymlinkedGit } from './repository-fixtures'

const tempDir = tempDirsRemovedAfterEach()

function expectGitRefused(cwd: string, reason: string): void {
  expect(checkGitRuntimeSafety(cwd)).toEqual({ safe: false, reason: expect.stringContaining(reason) })
  const verdict = classifyCommand('git status', { cwd, platform: 'linux' })
  expect(verdict.readOnly).toBe(false)
  expect(verdict.reason).toContain(reason)
}

function expectGitAllowed(cwd: string): void {
  expect(checkGitRuntimeSafety(cwd).safe).toBe(true)
  expect(classifyCommand('git status', { cwd, platform: 'linux' })).toMatchObject({
    readOnly: true,
    reason: 'git status only reads the repository',
  })
}

describe('repositories git may use safely', () => {
  it('a directory with no repository above it', () => {
    expectGitAllowed(tempDir())
  })

  it('a repository made by git init, from its root and from a subdirectory', () => {
    const root = tempDir()
    execFileSync('git', ['init', '-q', root])
    mkdirSync(join(root, 'src', 'deep'), { recursive: true })
    expectGitAllowed(root)
    expectGitAllowed(join(root, 'src', 'deep'))
  })

  it('a linked worktree whose gitdir file points into the main repository', () => {
    const base = tempDir()
    writeRepository(join(base, 'main'))
    expectGitAllowed(writeLinkedWorktree(join(base, 'main'), join(base, 'wt')))
  })

  it('a .git symlink to a repository outside the checkout', () => {
    const base = tempDir()
    writeGitDir(join(base, 'store', 'proj.git', '.git'))
    expectGitAllowed(writeSymlinkedGit(join(base, 'proj'), join(base, 'store', 'proj.git', '.git')))
  })

  it('program keys that are switched off', () => {
    const root = writeRepository(
      tempDir(),
      '[core]\n\tfsmonitor = false\n[pager]\n\tlog = false\n[pretty]\n\tshort = %h %s\n',
    )
    expectGitAllowed(root)
  })
})

describe('.git symlinks and gitdir files', () => {
  it('a .git symlink into the working directory', () => {
    const root = tempDir()
    writeGitDir(join(root, 'payload', '.git'))
    writeSymlinkedGit(root, join(root, 'payload', '.git'))
    expectGitRefused(root, 'points inside the working directory')
  })

  it('a .git symlink to a path without a .git segment', () => {
    const base = tempDir()
    writeGitDir(join(base, 'elsewhere'))
    expectGitRefused(
      writeSymlinkedGit(join(base, 'proj'), join(base, 'elsewhere')),
      'which has no .git segment',
    )
  })

  it('a dangling .git symlink', () => {
    const base = tempDir()
    expectGitRefused(writeSymlinkedGit(join(base, 'proj'), join(base, 'missing', '.git')), 'does not resolve')
  })

  it('a gitdir file pointing inside the working directory', () => {
    const root = tempDir()
    writeGitDir(join(root, 'hidden', '.git'))
    writeFileSync(join(root, '.git'), 'gitdir: hidden/.git\n')
    expectGitRefused(root, 'points inside the working directory')
  })

  it('a gitdir file pointing at a path without a .git segment', () => {
    const base = tempDir()
    writeGitDir(join(base, 'repo-store'))
    mkdirSync(join(base, 'proj'))
    writeFileSync(join(base, 'proj', '.git'), `gitdir: ${join(base, 'repo-store')}\n`)
    expectGitRefused(join(base, 'proj'), 'which has no .git segment')
  })

  it(`a gitdir file over ${MAX_GITDIR_FILE_BYTES} bytes`, () => {
    const root = tempDir()
    writeFileSync(join(root, '.git'), `gitdir: /x/.git\n${'#'.repeat(MAX_GITDIR_FILE_BYTES)}`)
    expectGitRefused(root, `is over ${MAX_GITDIR_FILE_BYTES} bytes`)
  })

  it('a gitdir file containing a NUL byte', () => {
    const root = tempDir()
    writeFileSync(join(root, '.git'), 'gitdir: /x/.git\0\n')
    expectGitRefused(root, 'contains a NUL byte')
  })

  it('a .git file without a gitdir line', () => {
    const root = tempDir()
    writeFileSync(join(root, '.git'), 'hello\n')
    expectGitRefused(root, 'is a file without a gitdir: line')
  })
})

describe('.git directories that are not a plain repository', () => {
  it.each([
    ['without HEAD', (gitDir: string) => rmSync(join(gitDir, 'HEAD')), 'has no valid HEAD'],
    [
      'with a HEAD that is not a ref or hash',
      (gitDir: string) => writeFileSync(join(gitDir, 'HEAD'), 'nonsense\n'),
      'has no valid HEAD',
    ],
    [
      'without objects',
      (gitDir: string) => rmSync(join(gitDir, 'objects'), { recursive: true }),
      'has no objects directory',
    ],
    [
      'without refs',
      (gitDir: string) => rmSync(join(gitDir, 'refs'), { recursive: true }),
      'has no refs directory',
    ],
    [
      'with a commondir file',
      (gitDir: string) => writeFileSync(join(gitDir, 'commondir'), '/tmp/elsewhere\n'),
      'has a commondir file',
    ],
  ])('a .git directory %s', (_name, damage, reason) => {
    const root = writeRepository(tempDir())
    damage(join(root, '.git'))
    expectGitRefused(root, reason)
  })

  it.each([
    ['a HEAD file', (dir: string) => writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n'), 'HEAD'],
    ['an objects directory', (dir: string) => mkdirSync(join(dir, 'objects')), 'objects'],
    ['a refs directory', (dir: string) => mkdirSync(join(dir, 'refs')), 'refs'],
    ['a HEAD symlink', (dir: string) => symlinkSync('/nonexistent', join(dir, 'HEAD')), 'HEAD'],
    ['an objects symlink', (dir: string) => symlinkSync('/tmp', join(dir, 'objects')), 'objects'],
  ])('%s between the working directory and the trusted .git', (_name, plant, marker) => {
    const root = writeRepository(tempDir())
    const sub = join(root, 'vendor', 'pkg')
    mkdirSync(sub, { recursive: true })
    plant(join(root, 'vendor'))
    expectGitRefused(sub, `${join(root, 'vendor', marker)} looks like a bare repository`)
  })
})

describe('hooks that git runs during reads', () => {
  it('an executable post-index-change hook, which git status really runs', () => {
    const root = tempDir()
    execFileSync('git', ['init', '-q', root])
    writeFileSync(join(root, 'tracked'), 'x')
    execFileSync('git', ['-C', root, 'add', 'tracked'])
    const marker = join(root, 'hook-ran')
    writeFileSync(join(root, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\ntouch '${marker}'\n`, {
      mode: 0o755,
    })

    expectGitRefused(root, '.git/hooks/post-index-change is a hook git runs even for git status')
    expect(existsSync(marker)).toBe(false)

    execFileSync('git', ['status', '--short'], { cwd: root, stdio: 'ignore' })
    expect(existsSync(marker)).toBe(true)
  })

  it('a hook file that is not executable, and the sample hooks git init writes', () => {
    const root = tempDir()
    execFileSync('git', ['init', '-q', root])
    writeFileSync(join(root, '.git', 'hooks', 'post-index-change'), '#!/bin/sh\n', { mode: 0o644 })
    expectGitAllowed(root)
  })

  it('a hook in the main repository of a linked worktree', () => {
    const base = tempDir()
    writeRepository(join(base, 'main'))
    mkdirSync(join(base, 'main', '.git', 'hooks'))
    writeFileSync(join(base, 'main', '.git', 'hooks', 'post-index-change'), '#!/bin/sh\n', { mode: 0o755 })
    expectGitRefused(writeLinkedWorktree(join(base, 'main'), join(base, 'wt')), 'post-index-change is a hook')
  })
})

describe('discovery order', () => {
  it('a checkout whose root also has a refs/ or objects/ folder: git uses .git there, and so do we', () => {
    const root = writeRepository(tempDir())
    mkdirSync(join(root, 'refs'))
    mkdirSync(join(root, 'objects'))
    expectGitAllowed(root)
  })
})

describe('repository config that runs programs', () => {
  it.each([
    ['[core]\n\tfsmonitor = ./hook.sh', 'core.fsmonitor'],
    ['[core]\n\tpager = sh -c "touch x"', 'core.pager'],
    ['[pager]\n\tstatus = ./evil', 'pager.status'],
    ['[core]\n\teditor = ./evil', 'core.editor'],
    ['[diff]\n\texternal = ./evil', 'diff.external'],
    ['[diff "pdf"]\n\ttextconv = ./evil', 'diff.pdf.textconv'],
    ['[diff "x"]\n\tcommand = ./evil', 'diff.x.command'],
    ['[core]\n\tsshCommand = ./evil', 'core.sshcommand'],
    ['[gpg]\n\tprogram = ./evil', 'gpg.program'],
    ['[gpg "ssh"]\n\tprogram = ./evil', 'gpg.ssh.program'],
    ['[filter "lfs"]\n\tsmudge = ./evil', 'filter.lfs.smudge'],
    ['[filter "x"]\n\tprocess = ./evil', 'filter.x.process'],
    ['[core]\n\thooksPath = ./hooks', 'core.hookspath'],
    ['[credential]\n\thelper = !./evil', 'credential.helper'],
    ['[log]\n\tshowSignature', 'log.showsignature'],
    ['[remote "origin"]\n\tuploadpack = ./evil', 'remote.origin.uploadpack'],
    ['[url "ext::sh -c evil"]\n\tinsteadOf = https://', 'url.ext::sh -c evil.insteadof'],
    ['[protocol "ext"]\n\tallow = always', 'protocol.ext.allow'],
    ['[merge "x"]\n\tdriver = ./evil', 'merge.x.driver'],
    ['[pretty]\n\tsig = %h %G?', 'pretty.sig'],
    ['[format]\n\tpretty = %(signature)', 'format.pretty'],
    ['[CORE]\n\tFSMonitor = ./hook.sh', 'core.fsmonitor'],
    ['[core.x]\n\tfoo = 1\n[core]\n\t# comment\n\tpager = \\\n  evil', 'core.pager'],
  ])('%j', (config, key) => {
    const root = writeRepository(tempDir(), `${config}\n`)
    expectGitRefused(root, `git config ${key} in .git/config runs a program`)
    // Only git is affected: other readers in the same repository stay read-only.
    expect(classifyCommand('ls && cat README', { cwd: root, platform: 'linux' }).readOnly).toBe(true)
  })

  // Class 5: git reads its own config now, so includeIf conditions count as git evaluates them.
  it('follows include.path and a matching includeIf, relative and nested, and skips one that does not match', () => {
    const root = writeRepository(tempDir(), '[include]\n\tpath = extra.inc\n')
    writeFileSync(
      join(root, '.git', 'extra.inc'),
      `[includeIf "gitdir:${root}/.git"]\n\tpath = ../nested.inc\n`,
    )
    writeFileSync(join(root, 'nested.inc'), '[core]\n\tfsmonitor = ./hook.sh\n')
    expectGitRefused(root, 'git config core.fsmonitor in nested.inc runs a program')
    const other = writeRepository(tempDir(), '[includeIf "gitdir:/never/"]\n\tpath = ../nested.inc\n')
    writeFileSync(join(other, 'nested.inc'), '[core]\n\tfsmonitor = ./hook.sh\n')
    expectGitAllowed(other)
  })

  it('~user/ and %(prefix)/ includes resolve as git resolves them', () => {
    // git cannot expand an unknown user's home, so every git command there fails: refused.
    const unknownUser = writeRepository(tempDir(), '[include]\n\tpath = ~nobody-shellgate/evil.inc\n')
    expectGitRefused(
      unknownUser,
      "git refuses the repository config: error: could not expand include path '~nobody-shellgate/evil.inc'",
    )
    // %(prefix)/ is git's install prefix, where nothing of that name exists.
    expectGitAllowed(writeRepository(tempDir(), '[include]\n\tpath = %(prefix)/etc/shellgate-evil.inc\n'))
  })

  it('follows a ~/ include into the home directory', () => {
    const root = writeRepository(
      tempDir(),
      '[include]\n\tpath = ~/.shellgate-test-include-that-does-not-exist\n',
    )
    expectGitAllowed(root)
  })

  it('a missing include is ignored, an include loop is a config git refuses', () => {
    expectGitAllowed(writeRepository(tempDir(), '[include]\n\tpath = missing.inc\n'))
    expectGitRefused(
      writeRepository(tempDir(), '[include]\n\tpath = config\n'),
      'git refuses the repository config',
    )
  })

  it('reads the main repository config of a linked worktree', () => {
    const base = tempDir()
    writeRepository(join(base, 'main'), '[core]\n\tfsmonitor = ./hook.sh\n')
    const worktree = writeLinkedWorktree(join(base, 'main'), join(base, 'wt'))
    expectGitRefused(worktree, 'git config core.fsmonitor in')
  })

  it('refuses a config line it cannot read rather than guessing', () => {
    const root = writeRepository(tempDir(), '[core\n\tfsmonitor = ./hook.sh\n')
    expectGitRefused(root, 'git refuses the repository config: fatal: bad config line')
  })

  it('never runs git to find out: a real fsmonitor hook runs under git status, not under classify', () => {
    const root = tempDir()
    execFileSync('git', ['init', '-q', root])
    const marker = join(root, 'hook-ran')
    writeFileSync(join(root, 'hook.sh'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    execFileSync('git', ['-C', root, 'config', 'core.fsmonitor', join(root, 'hook.sh')])

    expectGitRefused(root, 'git config core.fsmonitor in .git/config runs a program')
    expect(existsSync(marker)).toBe(false)

    // The threat is real: the same repository makes an ordinary `git status` run the hook.
    execFileSync('git', ['status', '--short'], { cwd: root, stdio: 'ignore' })
    expect(existsSync(marker)).toBe(true)
  })
})
