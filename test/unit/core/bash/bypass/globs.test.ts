import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeCommand, classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

// Ways to hide a glob inside a word: quotes that expand to nothing, a literal prefix, a bracket.
const PREFIXES = ['', "''", '""', "$''", "'-'", '-', 'x', './', '\\-', '"-"', "''-"]
const GLOBS = ['*', '?', '[-]', '[-o]*', '[!a]*', '?*', '*[t]', '[[:punct:]]*']
const SUFFIXES = ['', "''", 'delete', '*', '""']

function randomWord(random: () => number): string {
  return pick(random, PREFIXES) + pick(random, GLOBS) + pick(random, SUFFIXES)
}

describe('class 4: an unquoted glob anywhere in a word', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('real sort turns a planted -ooutput into its -o flag through a glob after an empty quote', () => {
    expect(runForReal("sort ''*", 'output', ['-ooutput']).markerMade).toBe(true)
    const verdict = classifyCommand("sort ''*", { cwd: tempDir(), platform: 'linux' })
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toContain('an unquoted glob expands to whatever files exist')
  })

  it('every word bash glob-expands is a glob word to us (bash as the oracle, seed 4, 300 words)', () => {
    const cwd = tempDir()
    for (const name of ['-delete', '-ooutput', '--output=x', 'a.ts', 'xt', '-'])
      writeFileSync(join(cwd, name), '')
    const random = seededRandom(4)
    const words = Array.from({ length: 300 }, () => randomWord(random))
    // One bash run prints, for each word, what it expands to, NUL-separated, then a \x01 record end.
    const script = words.map((word) => `printf '%s\\0' ${word}; printf '\\1\\0'`).join('\n')
    const run = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const expansions = run.stdout.split('\x01\0').slice(0, words.length)
    let expanded = 0
    words.forEach((word, index) => {
      const analysis = analyzeCommand(`cat ${word}`)
      const part = analysis.commands[0]
      const literal = part?.argv?.[1]
      const bashWords = (expansions[index] ?? '').split('\0').filter((_, i, all) => i < all.length - 1)
      const bashExpanded = bashWords.length !== 1 || bashWords[0] !== literal
      if (bashExpanded) expanded += 1
      // Whenever bash expanded the word, we marked it as a glob word.
      if (bashExpanded) expect(part?.globArgs, word).toContain(1)
    })
    expect(expanded).toBeGreaterThan(100)
  })

  // Tools with a flag that writes, runs or reads a file, or an operand that changes what they do.
  const RISKY = [
    'sort',
    'find',
    'git log',
    'sed -n p',
    'uniq',
    'xxd',
    'grep x',
    'test',
    'wc -l',
    'jq .',
    'rg x',
    'fd x',
  ]
  it('a hidden glob that can become a flag is refused before any `--` (seed 44, 400 commands)', () => {
    const cwd = tempDir()
    const random = seededRandom(44)
    let judged = 0
    for (let index = 0; index < 400; index += 1) {
      const command = `${pick(random, RISKY)} ${pick(random, ['', '-n ', 'f '])}${randomWord(random)}`
      const glob = analyzeCommand(command).commands[0]?.globs.find((word) => word?.bash)
      // A word whose every match starts with a literal other than `-` can never be a flag.
      if (!glob || (glob.prefix !== '' && !glob.prefix.startsWith('-'))) continue
      judged += 1
      const verdict = classifyCommand(command, { cwd, platform: 'linux' })
      expect(verdict.readOnly, command).toBe(false)
    }
    expect(judged).toBeGreaterThan(150)
  })

  it('real head, cat and ls turn a planted file into a flag that only changes what they print', () => {
    // -v prints a header, -n numbers lines, -l lists long: none reads another file or writes.
    const header = runForReal("head ''*", 'never-made', ['-v'])
    expect(header.markerMade).toBe(false)
    for (const [command, plant] of [
      ["head ''*", '-v'],
      ['cat *', '-n'],
      ["ls ''[-]*", '-l'],
      ['ls *.sh', '-R.sh'],
    ] as const) {
      const run = runForReal(command, 'output', [plant, 'output-never'])
      expect(run.markerMade, command).toBe(false)
      expect(classifyCommand(command, { cwd: tempDir(), platform: 'linux' }).readOnly, command).toBe(true)
    }
  })

  it('a glob with a literal prefix is read as file names by the tools that read files (seed 45)', () => {
    const cwd = tempDir()
    const random = seededRandom(45)
    const FILE_READERS = ['cat', 'head -n 5', 'tail -n 1', 'wc -l', 'grep -n x', 'sort', 'cut -c1', 'ls -la']
    for (let index = 0; index < 200; index += 1) {
      const prefix = pick(random, ['src/', './', 'x', 'a.', '.']) + pick(random, ['', "''", 'b'])
      const command = `${pick(random, FILE_READERS)} ${prefix}${pick(random, GLOBS)}${pick(random, SUFFIXES)}`
      expect(classifyCommand(command, { cwd, platform: 'linux' }).readOnly, command).toBe(true)
    }
    // Tools that read operands as programs or expressions, or write a second one, still refuse.
    for (const command of ['find x*', 'sed -n x*', 'uniq x*', 'xxd x*', 'jq x*', 'test x*']) {
      expect(classifyCommand(command, { cwd, platform: 'linux' }).readOnly, command).toBe(false)
    }
  })

  it('after `--`, only tools that read every later word as a file accept a glob', () => {
    const cwd = tempDir()
    const classify = (command: string) => classifyCommand(command, { cwd, platform: 'linux' }).readOnly
    expect(classify('cat -- *')).toBe(true)
    expect(classify("sort -- ''*")).toBe(true)
    expect(classify('git log -- *.ts')).toBe(true)
    // A value flag swallows the `--`, so the glob is still read as options.
    expect(classify('sort -k -- *')).toBe(false)
    expect(classify('git log --grep -- *')).toBe(false)
    // find reads a later `-delete` as an action, uniq and xxd write a second operand, sed and jq
    // read the first operand as a program, test evaluates `-v`.
    for (const command of ['find -- *', 'uniq -- *', 'xxd -- *', 'sed -n -- *', 'jq -- *', 'test -- *']) {
      expect(classify(command), command).toBe(false)
    }
    // `--include=*.ts` can only become `--include=` again.
    expect(classify('grep -rn --include=*.ts foo src')).toBe(true)
  })
})
