import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  ensureEmptyFile,
  hiddenPaths,
  protectedPaths,
  toolCacheRoots,
} from '../../../../src/main/core/sandbox/sandbox-paths'
import {
  checkSandboxSettings,
  isAllowlistDomain,
} from '../../../../src/main/core/sandbox/sandbox-settings-check'
import { defaultUserSettings } from '../../../../src/shared/settings'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempRoot() {
  const dir = mkdtempSync('/var/tmp/shellgate-paths-')
  made.push(dir)
  return dir
}
const defaults = defaultUserSettings().sandbox

describe('sandbox settings: bad input gets a clear message', () => {
  it.each([
    ['registry.npmjs.org', true],
    ['*.github.com', true],
    ['localhost', true],
    ['http://x.com/', false],
    ['x.com:443', false],
    ['not a domain', false],
    ['10.0.0.1', false],
    ['*', false],
    ['', false],
  ])('allowlist entry %j is a domain: %s', (entry, ok) => expect(isAllowlistDomain(entry)).toBe(ok))

  it('names each bad entry, a missing cache and a relative path', () => {
    const problems = checkSandboxSettings(
      {
        ...defaults,
        allowlist: ['ok.example', 'x.com:443'],
        toolCaches: ['/nonexistent/cache', 'rel/cache'],
        hiddenPaths: ['secrets'],
      },
      '/h',
    )
    expect(problems.map((p) => [p.code, p.field, p.entry])).toEqual([
      ['invalid_domain', 'allowlist', 'x.com:443'],
      ['missing_cache', 'toolCaches', '/nonexistent/cache'],
      ['relative_path', 'toolCaches', 'rel/cache'],
      ['relative_path', 'hiddenPaths', 'secrets'],
    ])
  })
})

describe('sandbox paths come from the disk: only what exists, at its real path', () => {
  it('hidden: built-in secrets that exist, SHELLGATE_HOME, user entries; a symlinked ~/.ssh at its target', () => {
    const root = tempRoot()
    const home = join(root, 'home')
    mkdirSync(join(root, 'real-ssh'), { recursive: true })
    mkdirSync(join(home, '.aws'), { recursive: true })
    symlinkSync(join(root, 'real-ssh'), join(home, '.ssh'))
    writeFileSync(join(home, '.npmrc'), '//registry/:_authToken=x\n')
    mkdirSync(join(home, 'vault'))
    const data = join(root, 'data')
    mkdirSync(data)
    expect(hiddenPaths(home, data, { ...defaults, hiddenPaths: ['~/vault', '~/missing'] })).toEqual([
      { path: join(root, 'real-ssh'), kind: 'dir' },
      { path: join(home, '.aws'), kind: 'dir' },
      { path: join(home, '.npmrc'), kind: 'file' },
      { path: data, kind: 'dir' },
      { path: join(home, 'vault'), kind: 'dir' },
    ])
  })

  it('tool caches: the default ones that exist', () => {
    const home = join(tempRoot(), 'home')
    mkdirSync(join(home, '.npm'), { recursive: true })
    mkdirSync(join(home, '.cargo', 'registry'), { recursive: true })
    expect(toolCacheRoots(home, defaults)).toEqual([join(home, '.npm'), join(home, '.cargo', 'registry')])
  })

  it('protected: a missing .git/hooks is created empty so it can be mounted read-only', () => {
    const ws = join(tempRoot(), 'ws')
    mkdirSync(join(ws, '.git'), { recursive: true })
    writeFileSync(join(ws, '.git', 'config'), '')
    expect(protectedPaths(ws)).toEqual([join(ws, '.git', 'hooks'), join(ws, '.git', 'config')])
  })

  it('protected: a symlinked .git/hooks makes the whole .git read-only (a link cannot be mounted over)', () => {
    const root = tempRoot()
    const ws = join(root, 'ws')
    mkdirSync(join(root, 'elsewhere'), { recursive: true })
    mkdirSync(join(ws, '.git'), { recursive: true })
    symlinkSync(join(root, 'elsewhere'), join(ws, '.git', 'hooks'))
    expect(protectedPaths(ws)).toEqual([join(ws, '.git')])
  })

  it('protected: a `gitdir:` worktree protects the real gitdir and its common dir too', () => {
    const root = tempRoot()
    const main = join(root, 'main', '.git')
    const worktreeGit = join(main, 'worktrees', 'wt')
    mkdirSync(join(main, 'hooks'), { recursive: true })
    writeFileSync(join(main, 'config'), '')
    mkdirSync(worktreeGit, { recursive: true })
    writeFileSync(join(worktreeGit, 'commondir'), '../..\n')
    const ws = join(root, 'wt')
    mkdirSync(join(ws, '.shellgate'), { recursive: true })
    writeFileSync(join(ws, '.git'), `gitdir: ${worktreeGit}\n`)
    expect(protectedPaths(ws)).toEqual([join(ws, '.shellgate'), join(main, 'hooks'), join(main, 'config')])
  })

  it('the empty file bound over hidden files is made empty again, 0600, every time', () => {
    const dir = join(tempRoot(), 'sandbox')
    const path = ensureEmptyFile(dir)
    writeFileSync(path, 'something wrote here')
    expect(ensureEmptyFile(dir)).toBe(path)
    expect(statSync(path).size).toBe(0)
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })
})
