import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { MAX_INDEXED_LINKS } from '../../../../../src/main/core/bash/places/secret-index'

/**
 * Walkers that read or list through the symlinks they find (issue 21, fourth review): find -exec
 * hands each found link to its reader, which opens where it leads; find -L, du -L, ls -RL and their
 * kin walk into linked folders. A link planted in the workspace must not let them read outside it
 * without asking. Each command is first run for real, to show it does reach the secret.
 */
const root = mkdtempSync(join(tmpdir(), 'sg-found-links-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const MARKER = 'PRIVATE-KEY-8c41'
const home = join(root, 'home')
mkdirSync(join(home, '.ssh'), { recursive: true })
writeFileSync(join(home, '.ssh', 'id_rsa'), `${MARKER}\n`)

function workspace(name: string, links: Record<string, string>): string {
  const dir = join(root, name)
  mkdirSync(join(dir, 'src'), { recursive: true })
  writeFileSync(join(dir, 'README.md'), 'hello\n')
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1\n')
  for (const [at, target] of Object.entries(links)) symlinkSync(target, join(dir, at))
  return dir
}

const planted = workspace('planted', { 'src/notes.txt': join(home, '.ssh', 'id_rsa'), homelink: home })
// A link to a folder inside the workspace, whose own link leaves it: `find -L src` goes on through.
const chained = workspace('chained', { 'src/lib': '../vendor' })
mkdirSync(join(chained, 'vendor'))
symlinkSync(home, join(chained, 'vendor', 'up'))

function realRun(command: string, cwd: string): string {
  try {
    return execFileSync('bash', ['-c', command], {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home },
    })
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '')
  }
}

const judge = (command: string, cwd: string) => classifyCommand(command, { cwd, workspace: cwd, home })

describe('a reader handed the symlinks a walk finds', () => {
  // What the real run shows: the key's contents, or (for the listings) its name under the link.
  const cases: Array<[command: string, shows: string]> = [
    ['find . -exec cat {} +', MARKER],
    ['find . -name notes.txt -exec cat {} \\;', MARKER],
    ['find src -exec head -n 5 {} +', MARKER],
    ['find . -type l -exec grep -H . {} +', MARKER],
    ['find . -name "*.txt" -exec od -c {} \\;', 'P   R   I'],
    ['find . -exec md5sum {} +', 'src/notes.txt'],
    ['find . -name notes.txt -execdir wc -l {} +', 'notes.txt'],
    ['find -L . -name id_rsa', 'homelink/.ssh/id_rsa'],
    ['find . -follow -path "*homelink/.ssh*"', 'homelink/.ssh/id_rsa'],
    ['find -L . -name id_rsa -printf "%p %s\\n"', 'homelink/.ssh/id_rsa'],
    ['du -La', 'homelink/.ssh/id_rsa'],
    ['du --dereference -a .', 'homelink/.ssh/id_rsa'],
    ['ls -RLa', 'id_rsa'],
    ['ls --recursive --dereference -a src/..', 'id_rsa'],
  ]
  it.each(cases)('%s reaches the key for real, and asks first', (command, shows) => {
    expect(realRun(command, planted)).toContain(shows)
    const verdict = judge(command, planted)
    expect(verdict.readOnly && (verdict.asks?.length ?? 0) > 0, `${verdict.readOnly} ${verdict.reason}`).toBe(
      true,
    )
  })

  it.each([
    ['find -L src -name id_rsa', 'src/lib/up/.ssh/id_rsa'],
    ['du -aL src', 'src/lib/up/.ssh/id_rsa'],
    // Start folders a glob picks are walked the same (find refuses a glob operand outright).
    ['du -aL s*', 'src/lib/up/.ssh/id_rsa'],
    ['ls -RLa s*', 'id_rsa'],
  ])('%s follows a link inside to a link outside, and asks', (command, shows) => {
    expect(realRun(command, chained)).toContain(shows)
    const verdict = judge(command, chained)
    expect(verdict.readOnly && (verdict.asks?.length ?? 0) > 0, `${verdict.readOnly} ${verdict.reason}`).toBe(
      true,
    )
  })

  it('names where the link leads in the question', () => {
    const verdict = judge('find . -exec cat {} +', planted)
    expect(verdict.asks?.map((ask) => ask.reason).join('\n')).toContain('.ssh/id_rsa')
  })

  it('a link to a process environment refuses, as naming it would', () => {
    const dir = workspace('environ', { 'src/env.txt': '/proc/self/environ' })
    expect(judge('find . -exec cat {} +', dir).readOnly).toBe(false)
  })
})

describe('inside .git, and below the folders find hands to a walker (second review)', () => {
  const repo = workspace('repo', {})
  execFileSync('git', ['init', '-q', repo])
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(repo, '.git', 'lk'))
  symlinkSync(join(home, '.ssh'), join(repo, '.git', 'sshdir'))
  const kept = workspace('kept', {})
  execFileSync('git', ['init', '-q', kept])
  writeFileSync(join(kept, '.git', '.env'), `API_KEY=${MARKER}\n`)
  mkdirSync(join(kept, '.git', 'modules', 's'), { recursive: true })
  writeFileSync(
    join(kept, '.git', 'modules', 's', 'config'),
    `[remote "origin"]\n\turl = https://u:${MARKER}@example.com/x.git\n`,
  )
  const handed = workspace('handed', { 'src/k': join(home, '.ssh') })
  writeFileSync(join(handed, 'src', '.env'), `API_KEY=${MARKER}\n`)

  it.each([
    [repo, 'find . -name lk -exec cat {} +'],
    [repo, 'find -L . -name id_rsa'],
    [repo, 'du -aL .'],
    [kept, 'grep -r API_KEY .'],
    [kept, `grep -rh ${MARKER.slice(0, 8)} .git/modules`],
    [handed, 'find . -name src -exec grep -r API_KEY {} +'],
    [handed, 'find . -type d -name src -exec grep -Rh PRIVATE {} +'],
    [handed, 'find . -name src -exec grep -r PRIVATE {}/k/ \\;'],
  ])('in %s, %s reaches the secret for real, and asks first', (dir, command) => {
    expect(realRun(command, dir)).toMatch(/PRIVATE-KEY|id_rsa/)
    const verdict = judge(command, dir)
    expect(verdict.readOnly && (verdict.asks?.length ?? 0) > 0, `${verdict.readOnly} ${verdict.reason}`).toBe(
      true,
    )
  })

  it('a plain repository still runs at once', () => {
    const plain = workspace('plain', {})
    execFileSync('git', ['init', '-q', plain])
    for (const command of ['grep -rn TODO .', 'find . -exec cat {} +', 'du -aL .']) {
      const verdict = judge(command, plain)
      expect(verdict.asks ?? [], command).toEqual([])
    }
  })
})

describe('without a link that leaves the workspace, nothing changes', () => {
  const clean = workspace('clean', { 'src/b.ts': 'a.ts', docs: 'src' })
  it.each([
    'find . -name "*.ts" -exec wc -l {} +',
    'find . -exec cat {} +',
    'find . -type f -exec grep -l export {} +',
    'find -L . -name "*.ts"',
    'du -La',
    'ls -RLa',
  ])('%s runs at once', (command) => {
    expect(realRun(command, clean)).not.toContain(MARKER)
    const verdict = judge(command, clean)
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks ?? []).toEqual([])
  })

  it('echo and printf are handed the link but open nothing', () => {
    const verdict = judge('find . -exec echo {} \\;', planted)
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks ?? []).toEqual([])
  })

  it('a name filter leaves out a link it does not pass', () => {
    const verdict = judge('find . -name "*.ts" -exec cat {} +', planted)
    expect(realRun('find . -name "*.ts" -exec cat {} +', planted)).not.toContain(MARKER)
    expect(verdict.asks ?? []).toEqual([])
  })

  it(`more than ${MAX_INDEXED_LINKS} links are not all followed: it asks`, () => {
    const many = workspace('many', {})
    for (let index = 0; index <= MAX_INDEXED_LINKS; index += 1)
      symlinkSync('../README.md', join(many, 'src', `l${index}`))
    const verdict = judge('find . -exec cat {} +', many)
    expect(verdict.asks?.map((ask) => ask.reason).join('\n')).toContain('symlinks, too many to follow')
  })
})

describe('find actions run left to right, and grep letters are read as getopt reads them (fifth review)', () => {
  const dir = workspace('ordered', { key: join(home, '.ssh', 'id_rsa') })
  mkdirSync(join(dir, 'deep', 'a'), { recursive: true })
  writeFileSync(join(dir, 'deep', 'a', '.env.production'), `TOKEN=${MARKER} secret\n`)

  it.each([
    'find . -exec cat {} + -name f',
    'find . -maxdepth 1 -type l -exec cat {} + -name f',
    'find deep -exec grep -H TOKEN {} \\; -name x',
    // -ecret is `-e cret`: a pattern, not -c.
    'find deep -type f -exec grep -i -ecret {} +',
    'find deep -type f -exec grep -iecret {} +',
    'find deep -type f -exec grep -e cret -e -lc {} +',
    // Sixth review: a branch after the first action sends the other files to a second one.
    'find . -name f -exec cat {} \\; -o -exec cat {} \\;',
    'find . -name f -exec true \\; , -exec cat {} +',
  ])('%s reaches the secret for real, and asks first', (command) => {
    expect(realRun(command, dir)).toMatch(/PRIVATE-KEY|TOKEN/)
    const verdict = judge(command, dir)
    expect(verdict.readOnly && (verdict.asks?.length ?? 0) > 0, `${verdict.readOnly} ${verdict.reason}`).toBe(
      true,
    )
  })

  it.each([
    'find . -name "*.md" -exec cat {} +',
    'find deep -type f -exec grep -l TOKEN {} +',
    'find deep -type f -exec grep -rlie TOKEN {} +',
    'find deep -type f -exec grep -c -e TOKEN {} +',
  ])('%s reads no secret or prints only names and counts, and runs at once', (command) => {
    expect(realRun(command, dir)).not.toContain(MARKER)
    const verdict = judge(command, dir)
    expect(
      verdict.readOnly && (verdict.asks ?? []).length === 0,
      `${verdict.reason} ${JSON.stringify(verdict.asks)}`,
    ).toBe(true)
  })
})
