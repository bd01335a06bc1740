import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { splitArgv } from './f-argv'
import { analyzeCommand } from '../../../../../src/main/core/bash/analysis/analyze-command'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

// Static word pieces with every quoting rule bash applies: the words we judge must be the words bash runs.
const PIECES = [
  'plain',
  '-x',
  '--flag=v',
  "'single $x `y` \\ \"'",
  '"double \\" \\\\ \\$ \\` end"',
  '"keep \\n \\a"',
  "$'ansi \\x41\\n\\t\\u0041\\'\\\\'",
  "$'\\x2d\\x64elete'",
  "$'\\cA\\e\\E\\101\\x2\\q\\\"'",
  "$'\\U0000002F\\u2d'",
  "$'\\055i'",
  'a\\ b',
  '\\\\',
  '\\$x',
  '\\-o',
  "\\'",
  'a\\\nb',
  '"a\\\nb"',
  '"$"',
  '{}',
  'a{b}',
  'x=y',
  'a#b',
  '"',
  "''",
  '""',
  '*.nothing-matches',
  '[z].none',
  'é😀',
]

function randomWord(random: () => number): string {
  const pieces = 1 + Math.floor(random() * 3)
  let word = ''
  for (let index = 0; index < pieces; index += 1) {
    const piece = pick(random, PIECES)
    // A lone `"` only makes sense as part of a pair.
    word += piece === '"' ? '"q"' : piece
  }
  return word
}

/**
 * Run every line under real bash with `f` printing its argument count and arguments, NUL-separated,
 * in a locale named here, never the test runner's: `$'\u00e9'` is `é` under C.UTF-8 and the escape
 * itself under C, which is what a run without LANG gets (CI has none).
 */
function argvFromBash(lines: string[], cwd: string, locale = 'C.UTF-8'): string[][] {
  const script = `f() { printf '%s\\0' "$#" "$@"; }\n${lines.join('\n')}\n`
  const output = execFileSync('bash', ['--norc', '--noprofile', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: locale },
  })
  return splitArgv(output)
}

describe('differential: our argv equals the argv bash passes', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('for 400 lines of quoting, escaping and ANSI-C words (seed 5150)', () => {
    const random = seededRandom(5150)
    const lines = Array.from({ length: 400 }, () =>
      ['f', ...Array.from({ length: 1 + Math.floor(random() * 4) }, () => randomWord(random))].join(' '),
    )
    const ours = lines.map((line) => {
      const analysis = analyzeCommand(line)
      // A backslash-newline glued to a word is refused unparsed: bash joins the lines first.
      if (analysis.parseError?.includes('a backslash-newline inside a word')) {
        expect(line).toMatch(/[^ \t\n|&;()]\\\n/)
        return 'refused'
      }
      expect(analysis.permissionSafe, line).toBe(true)
      expect(analysis.commands, line).toHaveLength(1)
      return analysis.commands[0]?.argv?.slice(1)
    })
    const theirs = argvFromBash(lines, tempDir())
    expect(theirs).toHaveLength(lines.length)
    lines.forEach((line, index) => {
      if (ours[index] !== 'refused') expect(ours[index], line).toEqual(theirs[index])
    })
    expect(ours.filter((argv) => argv === 'refused').length).toBeLessThan(lines.length / 4)
  })
})

describe('a character escape above U+007F depends on the locale of the run', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it.each(["f $'\\u00e9'", "f $'\\U0001F600'", "f $'x\\u2fa'"])(
    '%s is dynamic: bash passes other bytes under C than under C.UTF-8',
    (line) => {
      expect(argvFromBash([line], tempDir(), 'C')).not.toEqual(argvFromBash([line], tempDir(), 'C.UTF-8'))
      expect(analyzeCommand(line).commands[0]?.argv ?? null).toBeNull()
    },
  )

  it.each(["f $'\\u0041\\U0000002f'", "f $'\\\\u00e9'", "f 'é' $'\\xc3\\xa9'"])(
    '%s is static: the same bytes in every locale',
    (line) => {
      const theirs = argvFromBash([line], tempDir(), 'C.UTF-8')
      expect(argvFromBash([line], tempDir(), 'C')).toEqual(theirs)
      expect(analyzeCommand(line).commands[0]?.argv?.slice(1)).toEqual(theirs[0])
    },
  )
})

// Every escape bash's $'…' knows, and near misses: what we accept must decode to bash's bytes.
const ANSI_C_ATOMS = [
  'a',
  '/',
  '.',
  '-',
  ' ',
  "\\'",
  '\\\\',
  '\\"',
  '\\?',
  '\\a',
  '\\b',
  '\\e',
  '\\E',
  '\\f',
  '\\n',
  '\\r',
  '\\t',
  '\\v',
  '\\q',
  '\\x2f',
  '\\x2',
  '\\xg',
  '\\x{2f}',
  '\\x{}',
  '\\x{2e',
  '\\x{12f}',
  '\\057',
  '\\0',
  '\\400',
  '\\1010',
  '\\8',
  '\\u002f',
  '\\u2f',
  '\\u{2f}',
  '\\U0000002e',
  '\\U',
  '\\cA',
  '\\c?',
  '\\c@',
  '\\c\\\\',
  '\\c/',
  '\\c',
]

describe('differential: ANSI-C strings decode as bash decodes them', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it("for 400 $'…' words of escapes and near misses; what we cannot decode is refused (seed 5252)", () => {
    const random = seededRandom(5252)
    const lines = Array.from({ length: 400 }, () => {
      const atoms = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, ANSI_C_ATOMS))
      return `f $'${atoms.join('')}'x`
    })
    const theirs = argvFromBash(lines, tempDir())
    const inC = argvFromBash(lines, tempDir(), 'C')
    let compared = 0
    let localeDependent = 0
    lines.forEach((line, index) => {
      const argv = analyzeCommand(line).commands[0]?.argv
      const sameInEveryLocale = JSON.stringify(theirs[index]) === JSON.stringify(inC[index])
      if (!sameInEveryLocale) {
        // What bash passes depends on the run's locale, not the text: never judged as a value.
        localeDependent += 1
        expect(argv ?? null, line).toBeNull()
      } else if (argv === null || argv === undefined) {
        // A word we refuse to decode is dynamic, so argv is null and nothing runs unasked.
        expect(line).toContain('\\x{')
      } else {
        compared += 1
        expect(argv.slice(1), line).toEqual(theirs[index])
      }
    })
    expect(compared).toBeGreaterThan(200)
    expect(localeDependent).toBeGreaterThan(0)
  })
})

// Assignment-shaped words (`a=~/x`, `x=a:~/b`): bash expands their tildes in any command's
// arguments, zsh with MAGIC_EQUAL_SUBST after the `=` of any `anything=` word.
// A word's leading tilde (`~/x`, `~-`) is the place rules' (they ask); a word starting with `=` is
// zsh's command lookup, so neither starts a word here.
const TILDE_HEADS = ['a=', 'a+=', '_x9=', '--f=', '1a=', 'a-b=', 'a[0]=', 'b', 'x:']
const TILDE_TAILS = ['~', '~/x', '~root', '~+', '~-', ':', "'~'", '\\~', '"~"', 'b', 'b~', '/', '=', "'a='"]

describe('differential: a tilde after `=` or `:` is the home folder, or the word is dynamic', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('for 400 assignment-shaped words: every static argv is what bash and zsh (magic_equal_subst) pass (seed 6161)', () => {
    const random = seededRandom(6161)
    const lines = Array.from({ length: 400 }, () => {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const tails = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, TILDE_TAILS))
        return pick(random, TILDE_HEADS) + tails.join('')
      })
      return ['f', ...words].join(' ')
    })
    const cwd = tempDir()
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', HOME: '/home/fake' }
    const script = `f() { printf '%s\\0' "$#" "$@"; }\n${lines.join('\n')}\n`
    const readings = [
      execFileSync('bash', ['--norc', '--noprofile', '-c', script], { cwd, encoding: 'utf8', env }),
      execFileSync('zsh', ['-f', '-c', `setopt magic_equal_subst nonomatch\n${script}`], {
        cwd,
        encoding: 'utf8',
        env,
      }),
    ].map(splitArgv)
    let staticWords = 0
    let dynamicWords = 0
    lines.forEach((line, index) => {
      const argv = analyzeCommand(line).commands[0]?.argv
      if (argv === null || argv === undefined) {
        dynamicWords += 1
        expect(line, 'only a tilde after = or : makes these dynamic').toMatch(/[=:]~/)
        return
      }
      staticWords += 1
      for (const reading of readings) expect(argv.slice(1), line).toEqual(reading[index])
    })
    expect(staticWords).toBeGreaterThan(80)
    expect(dynamicWords).toBeGreaterThan(80)
  })
})
