import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import {
  RECENT_CHANGE_MS,
  readHistorySecrets,
} from '../../../../../src/main/core/bash/git-safety/history-secrets'

/**
 * Issue 21: a secret file committed and later deleted is in no tree or index of today, yet
 * `git log -p`, `git show REV` and `git grep x REV` print it. Each case runs git for real first.
 */
const ENV = { PATH: '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' }
const SECRET = 'DEPLOY_TOKEN=deleted-but-in-history'

let repo = ''
let home = ''

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...ENV, HOME: home },
  })
}

function realOutput(command: string): string {
  return spawnSync('bash', ['-c', command], { cwd: repo, encoding: 'utf8', env: { ...ENV, HOME: home } })
    .stdout
}

function asks(command: string): string[] {
  const verdict = classifyCommand(command, { cwd: repo, workspace: repo, platform: 'linux', home })
  expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
  return (verdict.asks ?? []).map((ask) => ask.path)
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'shellgate-git-history-'))
  home = mkdtempSync(join(tmpdir(), 'shellgate-git-history-home-'))
  mkdirSync(join(repo, 'src'))
  mkdirSync(join(repo, 'deploy'))
  writeFileSync(join(repo, 'src', 'a.ts'), 'export const a = 1\n')
  writeFileSync(join(repo, 'deploy', 'prod.env'), `${SECRET}\n`)
  git('init', '-q')
  git('add', '.')
  git('commit', '-qm', 'first')
  git('rm', '-q', 'deploy/prod.env')
  git('commit', '-qm', 'drop the secret')
})

afterAll(() => {
  rmSync(repo, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

const secretPath = () => join(repo, 'deploy', 'prod.env')

describe('secret files deleted from the tree but kept in the history', () => {
  it.each([
    'git log -p',
    'git log --patch --all',
    'git show HEAD~1',
    'git show HEAD',
    'git diff HEAD~1',
    'git diff HEAD~1 HEAD',
    'git grep DEPLOY HEAD~1',
    'git grep -e DEPLOY HEAD~1',
  ])('%s prints it, so it asks', (command) => {
    expect(realOutput(command)).toContain(SECRET)
    expect(asks(command)).toContain(secretPath())
  })

  it.each(['git log --oneline', 'git log -p -- src', 'git grep DEPLOY', 'git diff', 'git status'])(
    '%s does not print it, so it does not ask',
    (command) => {
      expect(realOutput(command)).not.toContain(SECRET)
      expect(asks(command)).toEqual([])
    },
  )

  it('a secret committed and deleted after an earlier verdict is seen by the next one', () => {
    const again = 'git log -p -- keys'
    expect(asks(again)).toEqual([])
    mkdirSync(join(repo, 'keys'))
    writeFileSync(join(repo, 'keys', 'id_rsa'), 'PRIVATE KEY\n')
    git('add', 'keys/id_rsa')
    git('commit', '-qm', 'oops')
    git('rm', '-q', 'keys/id_rsa')
    git('commit', '-qm', 'remove it')
    expect(realOutput(again)).toContain('PRIVATE KEY')
    expect(asks(again)).toContain(join(repo, 'keys', 'id_rsa'))
  })

  it('a secret only a stash holds is in the history too', () => {
    writeFileSync(join(repo, 'src', '.env.local'), 'STASHED=1\n')
    git('add', 'src/.env.local')
    git('stash', '-q')
    expect(realOutput('git stash show -p')).toContain('STASHED=1')
    expect(asks('git stash show -p')).toContain(join(repo, 'src', '.env.local'))
  })

  it("a partial clone is refused, and its history is read without fetching what it lacks: a fetch runs the remote's upload-pack", () => {
    const clone = mkdtempSync(join(tmpdir(), 'shellgate-git-partial-'))
    try {
      git('config', 'uploadpack.allowFilter', 'true')
      execFileSync('git', ['clone', '-q', '--filter=blob:none', '--no-checkout', `file://${repo}`, clone], {
        env: { ...ENV, HOME: home },
      })
      const packs = () => readdirSync(join(clone, '.git', 'objects', 'pack')).sort()
      const before = packs()
      const verdict = classifyCommand('git log -p', { cwd: clone, workspace: clone, platform: 'linux', home })
      // A lazy fetch of the missing blobs would have left a new promisor pack.
      expect(verdict).toMatchObject({ readOnly: false, reason: expect.stringContaining('partial clone') })
      // The history reader on its own, as a later check might reach it: it never fetches (the
      // missing blobs are skipped, which the refusal above covers).
      expect(readHistorySecrets(join(clone, '.git'), null)).toHaveProperty('paths')
      expect(packs()).toEqual(before)
    } finally {
      rmSync(clone, { recursive: true, force: true })
    }
  })

  it('a history git cannot list (one bad ref) is never "no secrets": the command asks', () => {
    const bad = join(repo, '.git', 'refs', 'heads', 'zz')
    writeFileSync(bad, `${'1'.repeat(40)}\n`)
    try {
      // git log -p walks HEAD only, so it still prints the deleted secret.
      expect(realOutput('git log -p')).toContain(SECRET)
      const verdict = classifyCommand('git log -p', { cwd: repo, workspace: repo, platform: 'linux', home })
      expect(verdict.readOnly && (verdict.asks ?? []).length === 0, verdict.reason).toBe(false)
    } finally {
      unlinkSync(bad)
    }
  })

  it('--diff-merges prints merge patches, so a secret only a merge brought in asks', () => {
    git('checkout', '-qb', 'side')
    writeFileSync(join(repo, 'merged.env'), 'MERGED_SECRET=via-a-merge\n')
    git('add', 'merged.env')
    git('commit', '-qm', 'side adds it')
    git('checkout', '-q', '-')
    git('merge', '-q', '--no-ff', '-m', 'merge side', 'side')
    git('rm', '-q', 'merged.env')
    git('commit', '-qm', 'drop it')
    for (const command of ['git log --diff-merges=on', 'git log --diff-merges=separate']) {
      expect(realOutput(command), command).toContain('MERGED_SECRET')
      expect(asks(command), command).toContain(join(repo, 'merged.env'))
    }
    expect(asks('git log --diff-merges=off')).toEqual([])
  })
})

describe('the history cache and linked worktrees', () => {
  /** The layout must be older than the cache's racily-clean window, or nothing is remembered. */
  const settle = () => {
    const until = Date.now() + RECENT_CHANGE_MS + 200
    while (Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50)
  }

  it('a secret committed and removed in another worktree is seen by the next verdict', () => {
    const main = mkdtempSync(join(tmpdir(), 'shellgate-git-wt-'))
    const other = `${main}-other`
    const run = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd,
        encoding: 'utf8',
        env: { ...ENV, HOME: home },
      })
    try {
      writeFileSync(join(main, 'a'), 'a\n')
      run(main, 'init', '-q')
      run(main, 'add', '.')
      run(main, 'commit', '-qm', 'one')
      run(main, 'worktree', 'add', '-q', '--detach', other)
      settle()
      const judge = () =>
        classifyCommand('git log -p --all', { cwd: main, workspace: main, platform: 'linux', home })
      expect(judge().asks ?? []).toEqual([])
      writeFileSync(join(other, '.env'), 'WORKTREE_SECRET=1\n')
      run(other, 'add', '.env')
      run(other, 'commit', '-qm', 'oops')
      run(other, 'rm', '-q', '.env')
      run(other, 'commit', '-qm', 'gone')
      settle()
      const after = spawnSync('git', ['log', '-p', '--all'], {
        cwd: main,
        encoding: 'utf8',
        env: { ...ENV, HOME: home },
      })
      expect(after.stdout).toContain('WORKTREE_SECRET')
      expect((judge().asks ?? []).map((ask) => ask.path)).toContain(join(main, '.env'))
    } finally {
      rmSync(main, { recursive: true, force: true })
      rmSync(other, { recursive: true, force: true })
    }
  })
})
