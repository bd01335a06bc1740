import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'

/**
 * Issue 21.4/21.5, git: what read-only git commands print from a real repository. A remote URL
 * with a password, a tracked `config/.env`, files named by flags, `-c` display settings and the
 * subcommands that got a table. Each case first runs git for real to show what it prints.
 */
const PASSWORD = 'ghp_password_in_url'
const TOKEN = 'TOKEN=tracked-secret'
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' }

let repo = ''
// The home folder is elsewhere: a repository inside it would hold ~/.ssh and ask for that.
let home = ''

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...ENV, HOME: repo } })
}

function real(command: string): { status: number | null; stdout: string } {
  const run = spawnSync('bash', ['-c', command], { cwd: repo, encoding: 'utf8', env: { ...ENV, HOME: repo } })
  return { status: run.status, stdout: run.stdout }
}

function verdict(command: string) {
  return classifyCommand(command, { cwd: repo, workspace: repo, platform: 'linux', home })
}

function asked(command: string): string[] {
  const result = verdict(command)
  expect(result.readOnly, `${command}: ${result.reason}`).toBe(true)
  return (result.asks ?? []).map((ask) => ask.path)
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'shellgate-git-reads-'))
  home = mkdtempSync(join(tmpdir(), 'shellgate-git-home-'))
  mkdirSync(join(repo, 'src'))
  mkdirSync(join(repo, 'config'))
  writeFileSync(join(repo, 'src', 'a.ts'), 'export const foo = 1\n')
  writeFileSync(join(repo, 'config', '.env'), `${TOKEN}\n`)
  writeFileSync(join(repo, 'README'), 'readme\n')
  git('init', '-q')
  git('remote', 'add', 'origin', `https://me:${PASSWORD}@example.invalid/x.git`)
  git('add', '.')
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'm')
})

afterAll(() => {
  rmSync(repo, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

describe('a remote URL with a password', () => {
  it.each([
    'git remote -v',
    'git remote get-url origin',
    'git remote show -n origin',
    'git config remote.origin.url',
    'git config --get remote.origin.url',
    'git ls-remote --get-url',
  ])('%s prints it, so it is not read-only without asking', (command) => {
    expect(real(command).stdout).toContain(PASSWORD)
    const result = verdict(command)
    expect(result.readOnly).toBe(false)
    expect(result.reason).toContain('remote.origin.url, whose value holds a password')
  })

  it('git remote lists the names only, and stays read-only', () => {
    expect(real('git remote').stdout).toBe('origin\n')
    expect(verdict('git remote').readOnly).toBe(true)
  })

  it('git var -l prints every config value, the URL among them, and is refused', () => {
    expect(real('git var -l').stdout).toContain(PASSWORD)
    expect(verdict('git var -l')).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('git var -l'),
    })
  })
})

describe('a tracked secret file read through git objects', () => {
  it.each([
    'git show HEAD:config/.env',
    'git cat-file -p :config/.env',
    'git cat-file -p HEAD:config/.env',
    'git log -p',
    'git show HEAD',
    'git grep --cached -h TOKEN',
    'git grep -h TOKEN',
    'git log -p -- config',
    'git diff-tree -p --root HEAD',
  ])('%s prints it, and asks first', (command) => {
    expect(real(command).stdout).toContain(TOKEN)
    expect(asked(command).some((file) => file.endsWith('config/.env'))).toBe(true)
  })

  it('a staged change to it (git diff --cached) asks too', () => {
    writeFileSync(join(repo, 'config', '.env'), `${TOKEN}\nMORE=1\n`)
    git('add', 'config/.env')
    try {
      expect(real('git diff --cached').stdout).toContain('MORE=1')
      expect(asked('git diff --cached').some((file) => file.endsWith('config/.env'))).toBe(true)
    } finally {
      git('reset', '-q', 'config/.env')
      writeFileSync(join(repo, 'config', '.env'), `${TOKEN}\n`)
    }
  })

  it.each([
    'git log --oneline',
    'git log -p -- src',
    'git show --stat HEAD',
    'git grep -n foo -- src',
    'git diff --cached --name-only',
  ])('%s prints none of it and asks nothing', (command) => {
    expect(real(command).stdout).not.toContain(TOKEN)
    expect(asked(command)).toEqual([])
  })
})

describe('git flags that name a file', () => {
  it('git blame --contents F prints F, and F is judged as a place read', () => {
    expect(real('git blame --contents /etc/passwd README').stdout).toContain('root:')
    expect(asked('git blame --contents /etc/passwd README')).toContain('/etc/passwd')
  })

  it.each([
    ['git blame -S /etc/passwd README', '/etc/passwd'],
    ['git blame --ignore-revs-file=/etc/hostname README', '/etc/hostname'],
    ['git log -p -O/etc/hostname', '/etc/hostname'],
    ['git grep -f /etc/hostname', '/etc/hostname'],
    ['git ls-files --exclude-from=/etc/hostname -o', '/etc/hostname'],
    ['git config -f /etc/gitconfig-nope --get a.b', '/etc/gitconfig-nope'],
    ['git rev-parse --resolve-git-dir /etc/hostname', '/etc/hostname'],
  ])('%s judges %s', (command, file) => {
    expect(asked(command)).toContain(file)
  })
})

describe('git -c', () => {
  it('a display setting is accepted, and git runs with it', () => {
    expect(real('git -c color.ui=never log --oneline').status).toBe(0)
    expect(verdict('git -c color.ui=never log --oneline').readOnly).toBe(true)
    expect(verdict('git -c pager.log=false -c core.quotepath=off log --oneline').readOnly).toBe(true)
  })

  it.each([
    'git -c core.pager=cat log',
    'git -c pager.log=cat log',
    'git -c diff.external=./x diff',
    'git -c diff.orderFile=/etc/passwd log -p',
    'git -c include.path=/tmp/x log',
    'git -c safe.directory=* log',
    'git -c log.showSignature=true log',
  ])('%s is refused', (command) => {
    expect(verdict(command)).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('git -c sets configuration'),
    })
  })
})

describe('git subcommands with a table', () => {
  it.each([
    'git cherry -v HEAD',
    'git show-branch --all',
    'git diff-tree -r --name-only HEAD',
    'git notes list',
    'git notes',
    'git check-attr -a -- README',
    'git var GIT_DEFAULT_BRANCH',
    'git submodule status',
    'git config user.name',
    'git config --list --name-only',
  ])('%s runs for real without changing the repository, and is read-only', (command) => {
    const before = git('status', '--porcelain')
    expect(real(command).status).not.toBe(128)
    expect(git('status', '--porcelain')).toBe(before)
    expect(verdict(command).readOnly).toBe(true)
  })

  it.each([
    ['git notes add -m x', 'not a flag known'],
    ['git notes remove', 'changes notes'],
    ['git var GIT_SSH_COMMAND', 'git var prints one of its variables'],
    ['git config user.name x', 'can set configuration'],
    ['git config openai.apikey', 'can hold a token'],
    ['git cherry a b c d', 'at most 3 operand'],
  ])('%s is not read-only (%s)', (command, reason) => {
    expect(verdict(command)).toMatchObject({ readOnly: false, reason: expect.stringContaining(reason) })
  })
})
