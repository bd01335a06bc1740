import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { analyzeCommand } from '../../../../../src/main/core/bash/analysis/analyze-command'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

// Pieces of brace words: alternatives, sequences (numbers, padded, stepped, letters), nesting,
// quoting and escapes that stop an expansion, and forms the two shells read differently.
const ATOMS = ['a', 'b', 'x-y', '.', "'q r'", '"s"', '\\{', '\\,', '\\}', '$', '-', '']
const SEQUENCES = [
  '{1..3}',
  '{3..1}',
  '{01..03}',
  '{1..7..3}',
  '{-2..1}',
  '{a..c}',
  '{c..a}',
  '{a..e..2}',
  '{1..a}',
  '{a..Z}',
]

function braceWord(random: () => number, depth: number): string {
  const roll = random()
  if (depth === 0 || roll < 0.3) return pick(random, ATOMS)
  if (roll < 0.45) return pick(random, SEQUENCES)
  if (roll < 0.55) return `{${braceWord(random, depth - 1)}}`
  const count = 1 + Math.floor(random() * 3)
  const alternatives = Array.from({ length: count }, () => braceWord(random, depth - 1))
  const inner = alternatives.join(',')
  return `${pick(random, ['', 'p', '"p"'])}{${count === 1 ? `${inner},` : inner}}${pick(random, ['', '.txt', braceWord(random, depth - 1)])}`
}

/** The words each line's `printf` gets in the given shell, split at NULs, one list per line. */
function wordsIn(shell: 'bash' | 'zsh', words: readonly string[], cwd: string): string[][] {
  // One subshell per word: a `${` that is a bad substitution ends only its own.
  const script = words.map((word) => `(printf '%s\\0' start ${word}) 2>/dev/null; printf '\\1\\0'`).join('\n')
  const run = spawnSync(shell, shell === 'zsh' ? ['-f', '-c', script] : ['-c', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  })
  return run.stdout
    .split('\x01\0')
    .slice(0, words.length)
    .map((chunk) => chunk.split('\0').slice(1, -1))
}

const hasZsh = spawnSync('zsh', ['-fc', 'true']).status === 0

describe('brace expansion as bash (and zsh) make it (issue 21.5)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('every brace word the analysis expands gives the words bash gives, and zsh too (seed 2153, 400 words)', () => {
    const random = seededRandom(2153)
    const words = Array.from({ length: 400 }, () => braceWord(random, 3))
    const cwd = tempDir()
    const bash = wordsIn('bash', words, cwd)
    const zsh = hasZsh ? wordsIn('zsh', words, cwd) : null
    let expanded = 0
    words.forEach((word, index) => {
      const analysis = analyzeCommand(`printf %s start ${word}`)
      const argv = analysis.commands[0]?.argv
      // A word the analysis does not expand is left to run time, and the line asks.
      if (argv === null || argv === undefined) return
      const ours = argv.slice(3)
      expect(ours, `bash: ${word}`).toEqual(bash[index])
      if (zsh) expect(ours, `zsh: ${word}`).toEqual(zsh[index])
      if (word.includes('{') && ours.length !== 1) expanded += 1
    })
    // The generator is no use if nearly everything is refused.
    expect(expanded).toBeGreaterThan(100)
  })
})
