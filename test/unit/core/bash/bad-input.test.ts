import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { seededRandom } from './seeded-random'

describe('bad input gets a not-read-only verdict with a reason, never an exception', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'shellgate-bad-input-'))
  afterAll(() => rmSync(cwd, { recursive: true, force: true }))
  const classify = (command: string) => classifyCommand(command, { cwd, platform: 'linux' })

  it('binary junk', () => {
    const random = seededRandom(99)
    const bytes = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256)))
    for (const command of [
      bytes.toString('latin1'),
      bytes.toString('utf8'),
      bytes.toString('binary').slice(0, 200),
    ]) {
      const verdict = classify(command)
      expect(verdict.readOnly).toBe(false)
      expect(verdict.reason).not.toBe('')
    }
  })

  it('a NUL byte', () => {
    expect(classify('cat a\0b')).toMatchObject({
      parsed: false,
      readOnly: false,
      permissionSafe: false,
      reason: 'the command does not parse: the command contains a NUL byte',
    })
  })

  it('10 MB of text', () => {
    const command = `echo ${'a'.repeat(10 * 1024 * 1024)}`
    expect(classify(command)).toMatchObject({
      parsed: false,
      readOnly: false,
      reason: `the command does not parse: the command is ${command.length} characters, over the 10000-character limit`,
    })
  })

  it.each([
    ['echo "open', 'unterminated double quote'],
    ["echo 'open", 'unterminated'],
    ['echo $(ls', 'does not parse'],
    ['echo `ls', 'does not parse'],
    ['ls )', "unexpected token ')'"],
  ])('unbalanced quoting %j', (command, reason) => {
    const verdict = classify(command)
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toContain(reason)
  })

  it('nesting deeper than the parser allows', () => {
    const command = `${'$('.repeat(400)}ls${')'.repeat(400)}`
    const verdict = classify(command)
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).not.toBe('')
  })

  it('lone surrogates and an empty or blank line', () => {
    expect(classify('cat \uD800')).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('unpaired UTF-16 surrogate'),
    })
    expect(classify('cat 😀').readOnly).toBe(true)
    expect(classify('')).toMatchObject({ readOnly: false, reason: 'the command is empty' })
    expect(classify('  \n\t ')).toMatchObject({ readOnly: false, reason: 'the command is empty' })
  })

  it('a value that is not a string at all', () => {
    const verdict = classifyCommand(undefined as unknown as string, { cwd, platform: 'linux' })
    expect(verdict.readOnly).toBe(false)
    expect(verdict.reason).toBe('the command does not parse: the command is not a string')
  })

  it('a cwd that does not exist or is a file still gets a git verdict, without throwing', () => {
    const file = join(cwd, 'plain-file')
    writeFileSync(file, 'x')
    for (const where of [join(cwd, 'missing', 'deeper'), file]) {
      // No repository there, so no repository config that could make git run a program.
      expect(classifyCommand('git status', { cwd: where, platform: 'linux' })).toMatchObject({
        readOnly: true,
        reason: 'git status only reads the repository',
      })
      // And a writer stays a writer wherever it is asked about.
      expect(classifyCommand('git commit -m x', { cwd: where, platform: 'linux' }).readOnly).toBe(false)
    }
  })
})
