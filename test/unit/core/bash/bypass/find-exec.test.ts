import { spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

describe('find -exec is judged by the command it runs (issue 21.5)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  function tree(): string {
    const dir = realpathSync(tempDir())
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true })
    writeFileSync(join(dir, 'src', 'a.ts'), 'TODO one\n')
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'TODO two\n')
    return dir
  }
  const classify = (command: string, cwd: string) =>
    classifyCommand(command, { cwd, workspace: cwd, platform: 'linux' })

  it('real find runs grep -l, wc -l and head on the files it finds, and those lines are read-only', () => {
    const cwd = tree()
    for (const [command, output] of [
      ['find . -name "*.ts" -exec grep -l TODO {} \\;', './src/a.ts'],
      ['find src -type f -exec wc -l {} +', '2 total'],
      ["find . -name '*.ts' -execdir head -n 1 {} ';'", 'TODO two'],
    ] as const) {
      const run = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8' })
      expect(run.stdout, command).toContain(output)
      const verdict = classify(command, cwd)
      expect(verdict, command).toMatchObject({ readOnly: true })
      expect(verdict.asks, command).toBeUndefined()
    }
  })

  it('a found .env printed by -exec cat asks; found by name only, it does not', () => {
    const cwd = tree()
    writeFileSync(join(cwd, 'src', 'deep', '.env'), 'TOKEN=hunter2\n')
    expect(
      spawnSync('bash', ['-c', 'find . -type f -exec cat {} +'], { cwd, encoding: 'utf8' }).stdout,
    ).toContain('hunter2')
    expect(classify('find . -type f -exec cat {} +', cwd).asks?.[0]?.reason).toContain('.env')
    expect(classify('find . -name "*.ts" -exec cat {} +', cwd).asks).toBeUndefined()
    expect(classify('find . -exec grep -l TOKEN {} +', cwd).asks).toBeUndefined()
  })

  it('a writer run by -exec writes for real and is refused; a planted `;` can end the clause early', () => {
    expect(runForReal('find . -name f -exec sort -o m {} \\;', 'm').markerMade).toBe(true)
    expect(runForReal("find . -name f -exec sh -c 'touch m' \\;", 'm').markerMade).toBe(true)
    // A file named `;` ends the -exec at the glob, and the planted -delete becomes find's action.
    const planted = 'find . -name victim -exec echo {} [\\;]* [-]de*'
    expect(runForReal(planted, 'never', [';', '-delete']).victimGone).toBe(true)
    for (const command of [
      'find . -name f -exec sort -o m {} \\;',
      "find . -name f -exec sh -c 'touch m' \\;",
      planted,
      'find . -name victim -exec echo * {} \\;',
      'find . -exec grep x {} \\; -delete',
      'find . -exec cat {}',
    ]) {
      expect(classify(command, tempDir()).readOnly, command).toBe(false)
    }
  })

  const READERS = ['grep -l TODO', 'grep -n x', 'wc -l', 'head -n 3', 'cat', 'ls -la', 'stat', 'file']
  const WRITERS = [
    'rm',
    'rm -f',
    'touch',
    'sort -o out',
    'sed -i s/a/b/',
    'chmod 600',
    'mv -t dst',
    'tee out',
    'cp -t dst',
    'sh -c cat',
  ]
  const TESTS = ['', '-name "*.ts"', '-type f', '-maxdepth 2 -name x', '-newer f', '-iname "*.MD" -type f']
  it('find -exec is read-only exactly when its command is (seed 512, 300 lines)', () => {
    const cwd = tree()
    const random = seededRandom(512)
    for (let index = 0; index < 300; index += 1) {
      const writes = random() < 0.4
      const inner = pick(random, writes ? WRITERS : READERS)
      const action = pick(random, ['-exec', '-execdir', '-ok', '-okdir'])
      const end = pick(random, ['\\;', "';'", '+'])
      const command = `find ${pick(random, ['.', 'src', 'src/deep'])} ${pick(random, TESTS)} ${action} ${inner} {} ${end}`
      const verdict = classify(command, cwd)
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(!writes)
    }
  })
})
