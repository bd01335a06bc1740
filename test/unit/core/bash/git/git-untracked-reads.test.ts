import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'

/**
 * Issue 21.4: `git grep --no-index`/`--untracked` and `git diff --no-index` on folders read files
 * git does not track, so an untracked `.env` at any depth is printed the way `grep -r` prints it,
 * and asks the same way; and `git blame` prints every line of a tracked secret file.
 */
const ENV = { PATH: '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' }
const SECRET = 'TOKEN=untracked-deep-secret'
let repo = ''
let home = ''

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'shellgate-git-grep-'))
  home = mkdtempSync(join(tmpdir(), 'shellgate-git-grep-home-'))
  mkdirSync(join(repo, 'config', 'deploy'), { recursive: true })
  writeFileSync(join(repo, 'readme.md'), 'TOKEN is documented here\n')
  writeFileSync(join(repo, 'config', 'deploy', 'prod.env'), `${SECRET}\n`)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...ENV, HOME: home } })
  git('init', '-q')
  mkdirSync(join(repo, 'empty'))
  git('add', 'readme.md')
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first')
})
afterAll(() => {
  rmSync(repo, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

const printed = (command: string) =>
  spawnSync('bash', ['-c', command], { cwd: repo, env: { ...ENV, HOME: home }, encoding: 'utf8' }).stdout
const asks = (command: string) => {
  const verdict = classifyCommand(command, { cwd: repo, workspace: repo, platform: 'linux', home })
  expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
  return (verdict.asks ?? []).map((ask) => ask.reason)
}

describe('git grep over files git does not track', () => {
  it.each([
    'git grep --no-index TOKEN',
    'git grep --untracked TOKEN',
    'git grep --untr -n TOKEN',
    'git grep --no-index -e TOKEN -- config',
    'git diff --no-index empty config',
    'git diff --no-index -U1 config/deploy empty',
  ])('%s prints the untracked secret, so it asks', (command) => {
    expect(printed(command)).toContain(SECRET)
    expect(asks(command).join('\n')).toContain(join('config', 'deploy', 'prod.env'))
  })

  it('git blame prints a tracked secret file line by line, so it asks about that file only', () => {
    const other = mkdtempSync(join(tmpdir(), 'shellgate-git-blame-'))
    try {
      writeFileSync(join(other, '.env.production'), 'K=tracked-and-blamed\n')
      writeFileSync(join(other, 'readme.md'), 'hello\n')
      const git = (...args: string[]) =>
        execFileSync('git', args, { cwd: other, env: { ...ENV, HOME: home } })
      git('init', '-q')
      git('add', '.')
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first')
      const judged = (command: string) =>
        classifyCommand(command, { cwd: other, workspace: other, platform: 'linux', home }).asks?.map(
          (ask) => ask.path,
        ) ?? []
      for (const command of ['git blame .env.production', 'git blame HEAD -- .env.production']) {
        const run = spawnSync('bash', ['-c', command], {
          cwd: other,
          env: { ...ENV, HOME: home },
          encoding: 'utf8',
        })
        expect(run.stdout, command).toContain('K=tracked-and-blamed')
        expect(judged(command), command).toContain(join(other, '.env.production'))
      }
      expect(judged('git blame readme.md')).toEqual([])
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })

  it.each([
    'git grep TOKEN',
    'git grep --untracked --no-untracked TOKEN',
    'git diff --no-index --stat empty config',
    // diff --no-index compares exactly its operands: files beside a secret-holding folder read nothing else.
    'git diff --no-index readme.md empty/../readme.md',
    'git diff --no-index -- readme.md empty',
  ])('%s prints no secret, so it asks nothing', (command) => {
    expect(printed(command)).not.toContain(SECRET)
    expect(asks(command)).toEqual([])
  })

  // Names only still answer a guess about what the file holds, one guess at a time.
  it('git grep --no-index -l TOKEN prints only names, and still asks: the answer tells what .env holds', () => {
    expect(printed('git grep --no-index -l TOKEN')).not.toContain(SECRET)
    expect(asks('git grep --no-index -l TOKEN').length).toBeGreaterThan(0)
  })
})
