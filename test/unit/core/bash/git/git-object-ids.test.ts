import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'

/**
 * Issue 21: objects named by id. The verdict judges what git prints by its file name, and only
 * objects a ref, the stash or a reflog reaches have one. A blob that `git add` then
 * `git rm --cached` (or a dropped stash) left behind is in no tree, yet `git cat-file -p ID`,
 * `git show ID` and `git grep x ID` print it. Every case runs git for real first.
 */
const ENV = { PATH: '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' }
const SECRET = 'DEPLOY_TOKEN=left-behind-by-rm-cached'

let repo = ''
let home = ''
let dangling = ''
let commit = ''

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...ENV, HOME: home },
  }).trim()
}

function realOutput(command: string): string {
  const run = spawnSync('bash', ['-c', command], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...ENV, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return run.stdout
}

function verdictOf(command: string) {
  return classifyCommand(command, { cwd: repo, workspace: repo, platform: 'linux', home })
}

/**
 * A blob whose id shares the commit's first 4 digits and sorts after it (git lists the candidates
 * in order, so the reachable one comes first): found by hashing as git does.
 */
function twinOf(commitId: string): string {
  for (let index = 0; ; index += 1) {
    const content = `${SECRET} ${index}\n`
    const id = createHash('sha1')
      .update(`blob ${Buffer.byteLength(content)}\0${content}`)
      .digest('hex')
    if (id.startsWith(commitId.slice(0, 4)) && id > commitId) return content
  }
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'shellgate-git-objects-'))
  home = mkdtempSync(join(tmpdir(), 'shellgate-git-objects-home-'))
  mkdirSync(join(repo, 'src'))
  writeFileSync(join(repo, 'src', 'a.ts'), 'export const a = 1\n')
  git('init', '-q')
  git('add', '.')
  git('commit', '-qm', 'first')
  commit = git('rev-parse', 'HEAD')
  writeFileSync(join(repo, '.env'), `${SECRET}\n`)
  git('add', '.env')
  dangling = git('rev-parse', ':.env')
  git('rm', '-q', '--cached', '.env')
  rmSync(join(repo, '.env'))
})

afterAll(() => {
  rmSync(repo, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

describe('objects no ref reaches, named by id', () => {
  const forms = (id: string) => [
    `git cat-file -p ${id}`,
    `git cat-file -p ${id.slice(0, 7)}`,
    `git cat-file blob ${id}`,
    `git cat-file blob '${id.slice(0, 6)}^{blob}'`,
    `git show ${id.slice(0, 10)}`,
    `git show --stat ${id}`,
    `git show -s --oneline ${id.slice(0, 8)}`,
    `git grep -h TOKEN ${id}`,
    `git diff ${id} ${id.slice(0, 12)}~0 --`,
  ]

  it('each form prints the left-behind secret, so none runs without asking', () => {
    for (const command of forms(dangling)) {
      if (!command.startsWith('git diff')) expect(realOutput(command), command).toContain(SECRET)
      const verdict = verdictOf(command)
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(false)
      expect(verdict.reason, command).toMatch(/no branch, tag, stash or reflog reaches/)
    }
  })

  it('every object in the store, or objects named on stdin, are not judged by name', () => {
    expect(realOutput('git cat-file --batch-all-objects --batch')).toContain(SECRET)
    expect(realOutput(`echo ${dangling} | git cat-file --batch`)).toContain(SECRET)
    for (const command of ['git cat-file --batch-all-objects --batch', 'git cat-file --batch-command'])
      expect(verdictOf(command).readOnly, command).toBe(false)
  })

  it('an abbreviation shared by a reachable commit and an unreachable blob asks: git may pick either', () => {
    const prefix = commit.slice(0, 4)
    const content = twinOf(commit)
    const path = join(home, 'twin')
    writeFileSync(path, content)
    const twin = git('hash-object', '-w', path)
    expect(twin.startsWith(prefix)).toBe(true)
    // A commit's context takes the commit; with the person's core.disambiguate=blob (their own
    // config, which the verdict does not read), cat-file takes the blob.
    expect(realOutput(`git log -1 --format=%H ${prefix}`).trim()).toBe(commit)
    expect(realOutput(`git -c core.disambiguate=blob cat-file -p ${prefix}`)).toContain(SECRET)
    for (const command of [`git cat-file blob ${prefix}`, `git show ${prefix}`, `git log -p ${prefix}`])
      expect(verdictOf(command).readOnly, command).toBe(false)
  })
})

describe('objects a ref reaches, named by id', () => {
  it('commits and the blobs of ordinary files stay read-only with nothing to ask', () => {
    const readme = git('rev-parse', 'HEAD:src/a.ts')
    for (const command of [
      `git show ${commit.slice(0, 8)}`,
      `git show --stat ${commit}`,
      `git cat-file -p ${commit}`,
      `git cat-file -p ${readme.slice(0, 9)}`,
      `git log -p ${commit.slice(0, 7)}..HEAD`,
      `git diff ${commit.slice(0, 7)}~0 HEAD`,
      `git cat-file -t ${dangling}`,
      'git cat-file --batch-check --batch-all-objects',
    ]) {
      expect(realOutput(command), command).not.toContain(SECRET)
      const verdict = verdictOf(command)
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
      expect(verdict.asks ?? [], command).toEqual([])
    }
  })

  it('a secret file’s blob named by id asks about that file, whatever the flags', () => {
    const other = mkdtempSync(join(tmpdir(), 'shellgate-git-objects-secret-'))
    try {
      const run = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
          cwd: other,
          encoding: 'utf8',
          env: { ...ENV, HOME: home },
        }).trim()
      mkdirSync(join(other, 'deploy'))
      writeFileSync(join(other, 'deploy', 'prod.env'), `${SECRET}\n`)
      run('init', '-q')
      run('add', '.')
      run('commit', '-qm', 'with a secret')
      const blob = run('rev-parse', 'HEAD:deploy/prod.env')
      run('rm', '-q', 'deploy/prod.env')
      run('commit', '-qm', 'gone from the tree')
      for (const command of [`git show --stat ${blob.slice(0, 7)}`, `git cat-file blob ${blob}`]) {
        const verdict = classifyCommand(command, { cwd: other, workspace: other, platform: 'linux', home })
        expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
        expect(verdict.asks?.map((ask) => ask.path) ?? [], command).toContain(
          join(other, 'deploy', 'prod.env'),
        )
      }
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })
})
