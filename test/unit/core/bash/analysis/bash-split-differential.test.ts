import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { splitArgv } from './f-argv'
import { analyzeCommand } from '../../../../../src/main/core/bash/analysis/analyze-command'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

// Words, separators, comments, continuations and here-documents: the simple commands we judge
// must be exactly the ones bash runs, in order, with the same words. Every command is `f`, a
// function that records its arguments, so bash runs nothing else.
const WORDS = ['a', '-x', "'q;r'", '"d#e"', 'x#y', '\\#z', '\\;', "$'\\n'", '"&&"', 'e\\\nf', '{}', '!']
const SEPARATORS = [
  '\r\n',
  ' \t;\t',
  ' ; ',
  ' && ',
  '\n',
  ';\n',
  ' # note ; f hidden\n',
  ' #\\\n',
  '\n\n',
  ' ;#c\n',
]
const HEREDOCS = [
  ' <<EOF\nbody ; f no\nEOF\n',
  " <<'EOF'\n$(f no)\nEOF\n",
  ' <<-EOF\n\tbody\n\tEOF\n',
  ' <<"E F"\nE F \nf no\nE F\n',
  ' <<EOF\nEOF \nf no\nEOF\n',
  ' <<\\EOF\n`f no`\nEOF\n',
]

function randomLine(random: () => number): string {
  let line = ''
  const commands = 1 + Math.floor(random() * 4)
  for (let index = 0; index < commands; index += 1) {
    const words = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, WORDS))
    line += ['f', ...words].join(' ')
    if (random() < 0.3) line += pick(random, HEREDOCS)
    else if (index < commands - 1) line += pick(random, SEPARATORS)
  }
  return line
}

/** Each simple command bash runs, as its argument list, from all lines in one bash. */
function commandsFromBash(lines: string[], cwd: string): string[][][] {
  const body = lines.map((line) => `printf '\\1'\n${line}\n`).join('')
  const script = `f() { printf '%s\\0' "$#" "$@"; }\n${body}`
  const output = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { cwd, encoding: 'utf8' })
  return output.split('\u0001').slice(1).map(splitArgv)
}

describe('differential: the simple commands we judge are the ones bash runs', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('for 300 lines of separators, comments, continuations and here-documents (seed 5353)', () => {
    const random = seededRandom(5353)
    const lines = Array.from({ length: 300 }, () => randomLine(random))
    const theirs = commandsFromBash(lines, tempDir())
    expect(theirs).toHaveLength(lines.length)
    let joined = 0
    lines.forEach((line, index) => {
      const analysis = analyzeCommand(line)
      // A carriage return is refused unparsed: bash keeps it inside a word, the parser splits there.
      if (line.includes('\r')) {
        expect(analysis.parseError).toContain('carriage return')
        return
      }
      // So is a backslash-newline glued to a word: bash joins the lines before it expands.
      if (analysis.parseError?.includes('a backslash-newline inside a word')) {
        expect(JOINED_INSIDE_WORD.test(line), JSON.stringify(line)).toBe(true)
        joined += 1
        return
      }
      expect(analysis.parsed, `${JSON.stringify(line)}: ${analysis.parseError}`).toBe(true)
      const ours = analysis.commands.map((part) => part.argv?.slice(1))
      expect(ours, JSON.stringify(line)).toEqual(theirs[index])
    })
    // Most lines are still compared with bash: the refusal is for continuations glued to a word.
    expect(joined).toBeLessThan(lines.length / 2)
  })
})

/** A backslash-newline right after a character that is not a blank, `|`, `&`, `;` or a parenthesis. */
const JOINED_INSIDE_WORD = /[^ \t\n|&;()]\\\n/
