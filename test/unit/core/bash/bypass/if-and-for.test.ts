import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { pick, seededRandom } from '../seeded-random'
import { runForReal } from './real-run'

const classify = (command: string) => classifyCommand(command, { cwd: '/tmp', platform: 'linux' })

describe('class 7: if and for whose every part is read-only', () => {
  it('read-only branches and loops are read-only', () => {
    for (const command of [
      'if true; then ls; fi',
      'if [ -f x ]; then cat x; else echo no; fi',
      'if git --version; then echo y; elif false; then pwd; fi',
      'for f in a b; do cat $f; done',
      'for f in *.ts; do wc -l $f; done',
      'for i in 1 2; do for j in 3; do echo $i$j; done; done',
      "if true; then echo 'fi'; fi",
    ]) {
      expect(classify(command).readOnly, command).toBe(true)
    }
  })

  it.each([
    ['if true; then touch m; fi', 'touch creates files'],
    ['if touch m; then ls; fi', 'touch creates files'],
    ['for f in a; do touch m; done', 'touch creates files'],
    ['for f in m; do sort -o $f f; done', 'is a variable expanded at run time'],
    ['for PATH in ./bin; do ls; done', 'for loop variable PATH'],
    ['for f in $(touch m); do echo $f; done', 'for over words computed at run time'],
    ['if true; then ls; fi > m', 'redirected compound command'],
    ['for d in a b; do cd x; done; touch m', 'cd inside a for loop'],
  ])('%s writes for real and is refused (%s)', (command, reason) => {
    // bin/ls is a planted program that a loop over PATH would run instead of ls.
    const plantLs = "mkdir -p x/x bin && printf '#!/bin/sh\\n/usr/bin/touch m\\n' > bin/ls && chmod +x bin/ls"
    // A cd in a loop runs twice: the marker lands in x/x, where the folder tracking never looked.
    const marker = command.includes('cd x') ? 'x/x/m' : 'm'
    expect(runForReal(`${plantLs}; ${command}`, marker).markerMade).toBe(true)
    expect(classify(command)).toMatchObject({ readOnly: false, reason: expect.stringContaining(reason) })
  })

  // A writer anywhere inside, at any depth, makes the whole line not read-only.
  const READERS = ['ls', 'cat f', 'echo $x', 'true', '[ -d x ]', 'git --version']
  const WRITERS = ['touch m', 'rm -f m', 'sort -o m f', 'tee m', 'cp f m', 'echo x > m', 'sed -i s/a/b/ f']
  it('a writer hidden in any branch or loop body is refused (seed 8, 300 lines)', () => {
    const random = seededRandom(8)
    const wrap = (inner: string, depth: number): string => {
      if (depth === 0) return inner
      const other = pick(random, READERS)
      const forms = [
        `if ${other}; then ${inner}; fi`,
        `if ${inner}; then ${other}; fi`,
        `if ${other}; then ${other}; else ${inner}; fi`,
        `if ${other}; then ${other}; elif ${other}; then ${inner}; fi`,
        `for x in a b; do ${inner}; done`,
        `for x in a; do ${other}; ${inner}; done`,
      ]
      return wrap(pick(random, forms), depth - 1)
    }
    for (let index = 0; index < 300; index += 1) {
      const command = wrap(pick(random, WRITERS), 1 + Math.floor(random() * 3))
      expect(classify(command).readOnly, command).toBe(false)
    }
  })
})
