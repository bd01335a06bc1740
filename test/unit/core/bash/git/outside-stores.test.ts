import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'

/**
 * git reads contents from wherever the repository's files say (issue 21, fourth review): a `.git`
 * file's gitdir, a linked worktree's common folder, `objects/info/alternates` (and theirs). When
 * that is outside the workspace, a read-only git command reads outside it, and asks first.
 */
const root = mkdtempSync(join(tmpdir(), 'sg-outside-stores-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const MARKER = 'OUTSIDE-REPO-CONTENT-61d0'
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' })

function repository(name: string, file: string, content: string): string {
  const dir = join(root, name)
  git(root, 'init', '-q', dir)
  writeFileSync(join(dir, file), content)
  git(dir, 'add', '.')
  git(dir, 'commit', '-qm', 'first')
  return dir
}

const outside = repository('outside', 'notes.txt', `${MARKER}\n`)

const staged: Record<string, () => string> = {
  'an alternates file': () => {
    const dir = repository('borrower', 'a.txt', 'a\n')
    writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), `${join(outside, '.git', 'objects')}\n`)
    writeFileSync(join(dir, '.git', 'refs', 'heads', 'other'), git(outside, 'rev-parse', 'HEAD'))
    return dir
  },
  'an alternate of an alternate': () => {
    const middle = repository('middle', 'm.txt', 'm\n')
    writeFileSync(
      join(middle, '.git', 'objects', 'info', 'alternates'),
      `${join(outside, '.git', 'objects')}\n`,
    )
    const dir = repository('borrower2', 'a.txt', 'a\n')
    // Relative to the objects folder, as git reads it.
    writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), '../../../middle/.git/objects\n')
    writeFileSync(join(dir, '.git', 'refs', 'heads', 'other'), git(outside, 'rev-parse', 'HEAD'))
    return dir
  },
  'a .git file': () => {
    const dir = join(root, 'pointer')
    mkdirSync(dir)
    writeFileSync(join(dir, '.git'), `gitdir: ${join(outside, '.git')}\n`)
    return dir
  },
  'a symlinked objects folder': () => {
    const dir = join(root, 'copied')
    execFileSync('cp', ['-r', outside, dir])
    execFileSync('rm', ['-rf', join(dir, '.git', 'objects')])
    symlinkSync(join(outside, '.git', 'objects'), join(dir, '.git', 'objects'))
    return dir
  },
  'symlinked pack files': () => {
    const dir = join(root, 'packed')
    git(outside, 'gc', '-q')
    execFileSync('cp', ['-r', outside, dir])
    for (const file of readdirSync(join(dir, '.git', 'objects', 'pack'))) {
      rmSync(join(dir, '.git', 'objects', 'pack', file))
      symlinkSync(join(outside, '.git', 'objects', 'pack', file), join(dir, '.git', 'objects', 'pack', file))
    }
    return dir
  },
  'a linked worktree': () => {
    const dir = join(root, 'tree')
    git(outside, 'worktree', 'add', '-q', dir)
    return dir
  },
}

describe.each(Object.keys(staged))('git reads another repository through %s', (how) => {
  const dir = (staged[how] as () => string)()
  const ref = how.includes('alternate') ? 'other' : 'HEAD'
  it.each([`git log -p ${ref}`, `git show ${ref}:notes.txt`, `git grep -h OUTSIDE ${ref}`])(
    '%s prints it for real, and asks first',
    (command) => {
      expect(execFileSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' })).toContain(MARKER)
      const verdict = classifyCommand(command, { cwd: dir, workspace: dir })
      expect(verdict.readOnly, verdict.reason).toBe(true)
      const asked = verdict.asks?.map((ask) => ask.reason).join('\n') ?? ''
      expect(asked).toContain('reads outside the workspace')
    },
  )

  it('is not asked about when those repositories are in a folder the person lets commands read', () => {
    const verdict = classifyCommand('git log -p', { cwd: dir, workspace: dir, readableFolders: [root] })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks ?? []).toEqual([])
  })
})

describe('a repository of its own', () => {
  it.each(['git status', 'git log -p', 'git show HEAD:notes.txt'])('%s runs at once', (command) => {
    const verdict = classifyCommand(command, { cwd: outside, workspace: outside })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks ?? []).toEqual([])
  })

  it('an alternates file that is a FIFO is refused, never read', () => {
    const dir = repository('fifo', 'a.txt', 'a\n')
    execFileSync('mkfifo', [join(dir, '.git', 'objects', 'info', 'alternates')])
    const verdict = classifyCommand('git status', { cwd: dir, workspace: dir })
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toContain('not a regular file')
  })
})

describe('a submodule whose .git file points outside the workspace (fifth review)', () => {
  // The superproject records `sm` as a gitlink to the outside repository's commit; `sm/.git` says
  // where its repository is. Flags the tables accept, or the repository's own config, print it.
  const top = repository('super', 'a.txt', 'a\n')
  mkdirSync(join(top, 'sm'))
  writeFileSync(join(top, 'sm', '.git'), `gitdir: ${join(outside, '.git')}\n`)
  git(top, 'update-index', '--add', '--cacheinfo', `160000,${git(outside, 'rev-parse', 'HEAD').trim()},sm`)
  git(top, 'config', 'submodule.sm.url', './sm')
  writeFileSync(join(top, '.gitmodules'), '[submodule "sm"]\n\tpath = sm\n\turl = ./sm\n')
  git(top, 'add', '.gitmodules')
  git(top, 'commit', '-qm', 'add sm')

  it.each([
    'git show --submodule=diff HEAD',
    'git log -p --submodule=diff',
    'git grep --recurse-submodules OUTSIDE HEAD',
  ])('%s prints it for real, and asks first', (command) => {
    expect(execFileSync('bash', ['-c', command], { cwd: top, encoding: 'utf8' })).toContain(MARKER)
    const verdict = classifyCommand(command, { cwd: top, workspace: top })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    const asked = verdict.asks?.map((ask) => ask.reason).join('\n') ?? ''
    expect(asked).toContain(`reads outside the workspace: ${join(outside, '.git')}`)
  })

  it("a symlinked module folder cannot move core.worktree's .. outside (git resolves it physically)", () => {
    const own = repository('own-linked', 'a.txt', 'a\n')
    git(own, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', join(root, 'outside'), 'lib')
    const modules = join(own, '.git', 'modules')
    execFileSync('mv', [join(modules, 'lib'), join(own, '.git', 'x')])
    symlinkSync('../x', join(modules, 'lib'))
    // Lexically from .git/modules/lib this is own/<name>; physically from .git/x it is root/<name>.
    git(
      own,
      'config',
      '--file',
      join(own, '.git', 'x', 'config'),
      'core.worktree',
      `../../../${own.split('/').at(-1)}-home`,
    )
    mkdirSync(join(root, `${own.split('/').at(-1)}-home`), { recursive: true })
    expect(classifyCommand('git diff --submodule=diff', { cwd: own, workspace: own })).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('core.worktree'),
    })
  })

  it('a submodule that tracks a secret-named file asks before git prints its files', () => {
    const own = repository('own-secret', 'a.txt', 'a\n')
    const lib = repository('lib-with-env', '.env', 'K=SUBMODULE-SECRET\n')
    git(own, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'lib')
    git(own, 'commit', '-qm', 'lib')
    writeFileSync(join(own, 'lib', '.env'), 'K=SUBMODULE-SECRET-CHANGED\n')
    expect(execFileSync('git', ['diff', '--submodule=diff'], { cwd: own, encoding: 'utf8' })).toContain(
      'SUBMODULE-SECRET',
    )
    const verdict = classifyCommand('git diff --submodule=diff', { cwd: own, workspace: own })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks?.map((ask) => ask.reason).join('\n')).toContain('lib/.env')
  })

  it('git run inside a submodule, its own work tree, is judged like any repository (code review)', () => {
    const own = repository('own-inside', 'a.txt', 'a\n')
    git(own, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', join(root, 'outside'), 'lib')
    const lib = join(own, 'lib')
    const verdict = classifyCommand('git status', { cwd: lib, workspace: own })
    expect(verdict.readOnly, verdict.reason).toBe(true)
  })

  it('a submodule kept inside the workspace (.git/modules) is not asked about', () => {
    const own = repository('own-super', 'a.txt', 'a\n')
    git(own, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', join(root, 'outside'), 'lib')
    git(own, 'commit', '-qm', 'lib')
    const verdict = classifyCommand('git log -p --submodule=diff', { cwd: own, workspace: own })
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks ?? []).toEqual([])
    // Its core.worktree (`../../../lib`, which git submodule add writes) is what ties it to lib/;
    // pointed anywhere else, git would diff that folder as the submodule's files.
    // Sixth review: the superproject's own .git, a folder of the tree not tied back to the module.
    mkdirSync(join(own, 'app'))
    for (const elsewhere of [
      outside,
      '../../..',
      join(own, 'lib', '..', '..'),
      '../../../.git',
      '../../../app',
    ]) {
      git(join(own, '.git', 'modules', 'lib'), 'config', 'core.worktree', elsewhere)
      expect(classifyCommand('git status', { cwd: own, workspace: own }), elsewhere).toMatchObject({
        readOnly: false,
        reason:
          'git config core.worktree in .git/modules/lib/config points git at files outside this repository',
      })
    }
  })
})
