import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { findAwkProgramProblem } from '../../../../../src/main/core/bash/readonly/callbacks/awk-program'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

const classify = (command: string) => classifyCommand(command, { cwd: '/tmp', platform: 'linux' })

describe('red team: a {NAME} redirect assigns a shell variable', () => {
  it('bash really sets PATH to the descriptor number, and a planted ./N/ls runs', () => {
    const setup =
      "for i in $(seq 3 40); do mkdir -p $i && printf '#!/bin/sh\\n/usr/bin/touch output\\n' > $i/ls && chmod +x $i/ls; done"
    expect(runForReal('{PATH}</dev/null true; ls', 'output', [], setup).markerMade).toBe(true)
    expect(classify('{PATH}</dev/null true; ls')).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('assigns the shell variable PATH'),
    })
  })

  const NAMES = ['PATH', 'IFS', 'BASH_ENV', 'fd', 'HOME', 'CDPATH', 'x_1']
  const OPERATORS = ['<', '>', '>>', '<>', '>&', '<&', '>|', '<<<']
  const TARGETS = ['/dev/null', 'f', '-', '2', '"word"']
  const COMMANDS = ['true', 'ls', 'cat f', 'echo hi', 'git status', 'grep x f']
  it('every name, operator and place of the redirect is refused (seed 81, 400 lines)', () => {
    const random = seededRandom(81)
    for (let index = 0; index < 400; index += 1) {
      const redirect = `{${pick(random, NAMES)}}${pick(random, OPERATORS)}${pick(random, TARGETS)}`
      const command = pick(random, COMMANDS)
      const line = random() < 0.5 ? `${redirect} ${command}` : `${command} ${redirect}`
      const verdict = classify(`${line}; ls`)
      expect(verdict.readOnly, `${line}: ${verdict.reason}`).toBe(false)
    }
  })

  it('plain descriptors stay read-only', () => {
    for (const command of ['ls 2>/dev/null', 'cat f 2>&1', 'grep x f >&2', 'cat <f', 'echo x 1>&-']) {
      expect(classify(command).readOnly, command).toBe(true)
    }
  })
})

describe('red team: awk programs read as mawk reads them', () => {
  const tempDir = tempDirsRemovedAfterEach()

  /** Runs the real awk (mawk here) on a file holding `a/b`; whether it made `m` or ran `c`. */
  function runAwk(program: string): boolean {
    const dir = tempDir()
    writeFileSync(join(dir, 'f'), 'a/b\nline "two"\n')
    spawnSync('awk', ['-v', `c=touch ${join(dir, 'm')}`, program, 'f'], { cwd: dir, timeout: 10_000 })
    return existsSync(join(dir, 'm'))
  }

  it.each([
    ['/[/"]/ { system(c) } # "', 'a / inside [ ]'],
    ['BEGIN { print "a",\n"b" > "m" }', 'print with > or |'],
    ['BEGIN { printf "%s", "a" \\\n > "m" }', 'print with > or |'],
    ['BEGIN { print "a" ||\n 0 > "m" }', 'print with > or |'],
  ])('%j really writes or runs, and is refused', (program, reason) => {
    expect(runAwk(program)).toBe(true)
    expect(findAwkProgramProblem(program)).toContain(reason)
  })

  it('ARGV, SYMTAB and FUNCTAB are refused: ARGV makes awk read a file no operand names', () => {
    const run = spawnSync('awk', ['BEGIN { ARGV[1] = "/proc/self/environ"; ARGC = 2 } 1'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TOKEN: 'secret-token-value' },
    })
    expect(run.stdout).toContain('TOKEN=secret-token-value')
    expect(findAwkProgramProblem('BEGIN { ARGV[1] = "x"; ARGC = 2 } 1')).toContain('ARGV')
    expect(findAwkProgramProblem('BEGIN { SYMTAB["x"] = 1 }')).toContain('SYMTAB')
    expect(findAwkProgramProblem('BEGIN { print FUNCTAB["f"] }')).toContain('FUNCTAB')
  })

  // Pieces that end a statement or not, around a write; the real awk is the oracle: whatever
  // the check accepts must neither write `m` nor run `c`.
  const OPENERS = ['', '/[/"]/ {', '/a[/]b/ {', '/[[:alpha:]/]/ {', 'BEGIN {', '$1 ~ /x/ {']
  const GLUE = ['', ',\n', ' \\\n', ' ||\n', ' &&\n', '\n', ';', ' # "\n']
  const WRITES = ['> "m"', '| "sh"', 'system(c)', '; system(c)', '" " > "m"', '"b"', '$2', '; n++']
  const CLOSERS = ['}', '} # "', '}\nEND { x = "" }', '']
  it('no generated program the check accepts writes or runs for real (seed 82, 240 programs)', () => {
    const random = seededRandom(82)
    let accepted = 0
    for (let index = 0; index < 240; index += 1) {
      const program = `${pick(random, OPENERS)} print "a"${pick(random, GLUE)}${pick(random, WRITES)} ${pick(random, CLOSERS)}`
      if (findAwkProgramProblem(program) !== null) continue
      accepted += 1
      expect(runAwk(program), program).toBe(false)
    }
    // The generator must reach the oracle often, or the test proves nothing.
    expect(accepted).toBeGreaterThan(20)
  })

  it('everyday programs stay read-only', () => {
    for (const program of [
      '{print $1}',
      '$3 > 100 {print $1}',
      '{ n++ }\n$3 > 5 { print }',
      '/a\\/b/ {print}',
      '/[0-9]+/ {print $2}',
      '/[[:alpha:]]+/ {print}',
      'NR % 2 == 0',
      '{ s += $1 } END { print s }',
    ]) {
      expect(findAwkProgramProblem(program), program).toBeNull()
    }
  })
})
