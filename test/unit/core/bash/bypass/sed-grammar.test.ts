import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import {
  parseSedScript,
  type SedCommand,
} from '../../../../../src/main/core/bash/readonly/callbacks/sed-grammar'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

const ADDRESSES = [
  '',
  '',
  '1',
  '$',
  '/a/',
  '/a/I',
  '\\%x%',
  '0~2',
  '1,3',
  '/a/,+2',
  '2!',
  '1,~4',
  '$!',
  '/[/]/',
  '\\,a\\,b,',
]
const SAFE = [
  'p',
  'd',
  '=',
  'l',
  'l 5',
  'q',
  'q 3',
  'Q',
  'n',
  'N',
  'D',
  'P',
  'g',
  'G',
  'h',
  'H',
  'x',
  'z',
  'F',
  's/a/b/',
  's/a/b/g',
  's|a|b|2p',
  's/[\\/]/x/',
  's/[]/]/x/',
  's/[^/]*/x/',
  's/[[:alpha:]/]/x/',
  's/\\//x/',
  's,a,b,I',
  's/a/[/',
  'y/ab/cd/',
  'y,a\\,b,cde,',
  '{p}',
  '{p;d}',
  ':a',
  'b',
  'ba',
  't',
  'T',
  'a text',
  'i\\\ntext',
  'c changed',
  'v',
  'v 4.2',
  '# a comment',
  's/a/b/ # comment',
]
const ATTACKS = [
  'w m',
  's/a/b/w m',
  'e touch m',
  's/x/y/e',
  'r f',
  'R f',
  'W m',
  '#c\\\nw m',
  'a foo\\\nw m',
  ':a e touch m',
  'v 4.2 e touch m',
  's/[/]/g;#/w m',
  's/a/[/]/w m',
  'y/a/b/;w m',
  's/a/b/gw m',
  '/[/]/w m',
  'i\\\nx\\\nw m',
  ':a;w m',
  'b a;w m',
  '1!{w m\n}',
  's/a/b/#\nw m',
  '\\%[%]%w m',
]
const SEPARATORS = [';', '\n', ' ; ', '\n\n']

function randomScript(random: () => number): string {
  const count = 1 + Math.floor(random() * 3)
  return Array.from({ length: count }, () => {
    const command = random() < 0.3 ? pick(random, ATTACKS) : pick(random, SAFE)
    return pick(random, ADDRESSES) + command
  }).join(pick(random, SEPARATORS))
}

/** The command letters (and s flags) of `sed --debug`'s SED PROGRAM listing. */
function debugCommands(output: string): SedCommand[] | null {
  const start = output.indexOf('SED PROGRAM:\n')
  if (start < 0) return null
  const commands: SedCommand[] = []
  for (const raw of output.slice(start + 13).split('\n')) {
    // a/i/c text is printed with its newline, so an empty line can sit inside the listing.
    if (raw === '') continue
    if (!raw.startsWith('  ')) break
    const line = raw.trim()
    let at = 0
    const skipAddress = () => {
      if (line[at] === '/') {
        at += 1
        while (at < line.length && line[at] !== '/') at += line[at] === '\\' ? 2 : 1
        at += 1
        while ('IM'.includes(line[at] ?? 'x')) at += 1
      } else while (/[0-9$+~]/.test(line[at] ?? '')) at += 1
    }
    skipAddress()
    if (line[at] === ',') {
      at += 1
      skipAddress()
    }
    if (line[at] === '!') at += 1
    if (line[at] === ' ') at += 1
    const name = line[at] as string
    if (name !== 's') {
      commands.push({ name })
      continue
    }
    at += 2
    for (let field = 0; field < 2; field += 1) {
      while (at < line.length && line[at] !== '/') at += line[at] === '\\' ? 2 : 1
      at += 1
    }
    commands.push({ name, flags: line.slice(at) })
  }
  return commands
}

const normalizeFlags = (flags: string | undefined) =>
  [...(flags ?? '').replace(/I/g, 'i').replace(/M/g, 'm')].sort().join('')
// sed --debug does not list `v` (it only checks the version), so neither side counts it.
const letters = (commands: SedCommand[]) =>
  commands
    .filter((command) => command.name !== 'v')
    .map((command) => (command.name === 's' ? `s:${normalizeFlags(command.flags)}` : command.name))

describe('class 1: sed scripts read as GNU sed reads them', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it.each([
    ["sed ':a e touch m' f", 'a label ends at whitespace'],
    ["sed 'v 4.2 e touch m' f", 'a v version ends at whitespace'],
    ["sed -n 's/[/]/g;#/w m' f", 'a / inside [ ] does not end the regex'],
    ["sed -n '#c\\\nw m' f", 'a comment ends at the newline even after a backslash'],
    ["sed -n -e 'y/a/b/' -e 'w m' f", 'every -e is one more line of the same script'],
  ])('%s writes for real (%s) and is refused', (command) => {
    expect(runForReal(command, 'm').markerMade).toBe(true)
    const verdict = classifyCommand(command, { cwd: tempDir(), platform: 'linux' })
    expect(verdict.readOnly, verdict.reason).toBe(false)
  })

  it('names what it did not understand', () => {
    expect(parseSedScript('s/a/b/X')).toEqual({
      ok: false,
      problem: 'the s flag "X", which is not known to be read-only, at offset 6 of the sed script "s/a/b/X"',
    })
    expect(parseSedScript('k')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('the sed command "k"'),
    })
  })

  it('accepts what people run', () => {
    for (const script of [
      's/a/b/g',
      '/x/p',
      '1,5p;$=',
      ':a;$!N;s/\\n//;ta',
      '/^#/d',
      's/[\\/]/x/',
      '$p',
      '1i\\\nhello',
      's#a#b#g',
      '5q',
    ]) {
      expect(parseSedScript(script).ok, script).toBe(true)
    }
  })

  // GNU sed as the oracle: every script we accept that sed compiles lists, in `sed --debug`, exactly
  // the commands we read, and running it wrote nothing; every script that wrote, we refused.
  it('agrees with sed --debug on generated scripts (seed 1, 400 scripts)', () => {
    const random = seededRandom(1)
    const scripts = Array.from({ length: 400 }, () => randomScript(random))
    const cwd = tempDir()
    scripts.forEach((script, index) => {
      writeFileSync(join(cwd, `s${index}`), script)
    })
    const run = spawnSync(
      'bash',
      [
        '-c',
        scripts
          .map(
            (_, i) =>
              `mkdir d${i} && cd d${i} && printf 'a/b\\n' > f && sed --debug -n -f ../s${i} f > ../o${i} 2>&1; cd ..`,
          )
          .join('\n'),
      ],
      { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd, LC_ALL: 'C' }, timeout: 120_000 },
    )
    expect(run.error).toBeUndefined()
    let compared = 0
    let wrote = 0
    scripts.forEach((script, index) => {
      const ours = parseSedScript(script)
      const theirs = debugCommands(readFileSync(join(cwd, `o${index}`), 'utf8'))
      const madeFiles = readdirSync(join(cwd, `d${index}`)).length > 1
      if (madeFiles) {
        wrote += 1
        expect(ours.ok, `${JSON.stringify(script)} wrote a file`).toBe(false)
      }
      if (!ours.ok || theirs === null) return
      compared += 1
      expect(letters(theirs), JSON.stringify(script)).toEqual(letters(ours.commands))
    })
    expect(compared).toBeGreaterThan(100)
    expect(wrote).toBeGreaterThan(20)
  }, 120_000)
})
