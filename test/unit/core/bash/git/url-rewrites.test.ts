import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'

/**
 * `url.<base>.insteadOf` rewrites every remote URL git prints into <base>, and CI setups put a
 * token in it (issue 21, fourth review). The base is part of the config *name*, so git prints it
 * from `remote -v` and from `config --name-only --list`, whichever file holds it: the repository's,
 * ~/.gitconfig, XDG's, or a file either includes.
 */
const TOKEN = 'ghp_4f9cTOKENa1b2c3d4e5f6a7b8c9d0e1f2a3b4'
const root = mkdtempSync(join(tmpdir(), 'sg-url-rewrites-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const REWRITE = `[url "https://x-access-token:${TOKEN}@github.com/"]\n\tinsteadOf = https://github.com/\n`

let home: string
let savedHome: string | undefined
let savedXdg: string | undefined
let count = 0
beforeEach(() => {
  count += 1
  home = join(root, `home-${count}`)
  mkdirSync(home)
  // git (for the real run) and classify (for the user's config) both take the home from $HOME.
  savedHome = process.env.HOME
  savedXdg = process.env.XDG_CONFIG_HOME
  process.env.HOME = home
  delete process.env.XDG_CONFIG_HOME
})
afterEach(() => {
  process.env.HOME = savedHome
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME
  else process.env.XDG_CONFIG_HOME = savedXdg
})

function repository(): string {
  const dir = join(home, 'work')
  execFileSync('git', ['init', '-q', dir])
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/o/r.git'])
  return dir
}

function realRun(command: string, cwd: string): string {
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }
  return execFileSync('bash', ['-c', command], { cwd, env, encoding: 'utf8' })
}

const PRINTERS = [
  'git remote -v',
  'git remote get-url origin',
  'git remote get-url --all origin',
  'git remote show -n origin',
  'git ls-remote --get-url',
  'git config --name-only --list',
  'git config --list --name-only',
  'git config --name-only --get-regexp url',
]

describe.each([
  ['~/.gitconfig', (dir: string) => writeFileSync(join(home, '.gitconfig'), REWRITE) ?? dir],
  [
    "XDG's git/config",
    (dir: string) => {
      mkdirSync(join(home, '.config', 'git'), { recursive: true })
      writeFileSync(join(home, '.config', 'git', 'config'), REWRITE)
      return dir
    },
  ],
  [
    'a file ~/.gitconfig includes under a condition',
    (dir: string) => {
      writeFileSync(join(home, '.gitconfig'), '[includeIf "gitdir:~/work/"]\n\tpath = ~/.gitconfig-work\n')
      writeFileSync(join(home, '.gitconfig-work'), REWRITE)
      return dir
    },
  ],
  [
    'the repository config',
    (dir: string) => writeFileSync(join(dir, '.git', 'config'), REWRITE, { flag: 'a' }) ?? dir,
  ],
])('a token in url.<base>.insteadOf, from %s', (_, plant) => {
  it.each(PRINTERS)('%s prints it for real, and is refused without naming it', (command) => {
    const dir = repository()
    plant(dir)
    expect(realRun(command, dir)).toContain(TOKEN)
    const verdict = classifyCommand(command, { cwd: dir, workspace: dir })
    expect(verdict.readOnly, verdict.reason).toBe(false)
    expect(verdict.reason).toContain('url.<…>.insteadof')
    expect(verdict.reason).not.toContain(TOKEN)
  })
})

describe('without a token in any name', () => {
  it.each(PRINTERS)('%s still runs at once', (command) => {
    const dir = repository()
    writeFileSync(join(home, '.gitconfig'), '[url "git@github.com:"]\n\tinsteadOf = https://github.com/\n')
    expect(realRun(command, dir)).not.toContain(TOKEN)
    const verdict = classifyCommand(command, { cwd: dir, workspace: dir })
    expect(verdict.readOnly, verdict.reason).toBe(true)
  })

  it('a token added after a first answer is seen by the next call', () => {
    const dir = repository()
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = me\n')
    expect(classifyCommand('git remote -v', { cwd: dir, workspace: dir }).readOnly).toBe(true)
    writeFileSync(join(home, '.gitconfig'), REWRITE)
    expect(classifyCommand('git remote -v', { cwd: dir, workspace: dir }).readOnly).toBe(false)
  })

  it('an include that cannot be read is refused, as it may hold one', () => {
    const dir = repository()
    mkdirSync(join(home, 'fifo-dir'))
    execFileSync('mkfifo', [join(home, 'fifo-dir', 'cfg')])
    writeFileSync(join(home, '.gitconfig'), '[include]\n\tpath = ~/fifo-dir/cfg\n')
    const verdict = classifyCommand('git remote -v', { cwd: dir, workspace: dir })
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toContain('cannot be checked')
  })
})
