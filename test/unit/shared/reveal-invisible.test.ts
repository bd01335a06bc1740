import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { revealInvisible } from '../../../src/shared/reveal-invisible'
import {
  COMMAND_NAME_MAX_CHARS,
  COMMAND_START_MAX_CHARS,
  commandName,
  commandStart,
} from '../../../src/renderer/format/command-name'

describe('revealInvisible', () => {
  it('leaves an ordinary command alone, tabs and newlines included', () => {
    expect(revealInvisible('git status\n\techo ok')).toEqual({ text: 'git status\n\techo ok', hidden: 0 })
  })

  it('shows bidi overrides, isolates, zero-width and control characters as code points', () => {
    // Reads as "ls # rm -rf x" in an editor that honours the override; runs rm.
    const trojan = 'rm -rf x \u202e# sl\u2066\u200b\u0007'
    expect(revealInvisible(trojan)).toEqual({
      text: 'rm -rf x ⟨U+202E⟩# sl⟨U+2066⟩⟨U+200B⟩⟨U+0007⟩',
      hidden: 4,
    })
  })
})

/**
 * Blank-looking and invisible characters that bash keeps inside a word. Each makes the card read
 * as something other than what runs: `ls<NBSP>-la` looks like `ls -la` and runs a program of that
 * one name; `./build.sh<SHY>` looks like `./build.sh` and runs a planted file beside it.
 */
const DECEPTIVE = [
  0x00a0, 0x00ad, 0x034f, 0x115f, 0x1160, 0x1680, 0x17b4, 0x180e, 0x2000, 0x2007, 0x200a, 0x2028, 0x2029,
  0x202f, 0x205f, 0x206a, 0x2800, 0x3000, 0x3164, 0xfe0f, 0xffa0, 0xfffa, 0x1d173, 0xe0041, 0xe007f, 0xe0100,
]

describe('revealInvisible and what bash really reads', () => {
  it('reveals every blank or invisible character that bash keeps inside a word', () => {
    const words = DECEPTIVE.map((code) => `a${String.fromCodePoint(code)}b`)
    // Real bash, in a UTF-8 locale: each `a<char>b` stays ONE word, and it is not "ab".
    const script = words.map(
      (word) => `set -- ${word}; [ "$#" = 1 ] && [ "$1" != ab ] && printf 1 || printf 0`,
    )
    const seen = spawnSync('bash', ['-c', script.join('\n')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
    })
    expect(seen.stdout).toBe('1'.repeat(DECEPTIVE.length))
    for (const [index, code] of DECEPTIVE.entries()) {
      const marker = `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`
      expect(revealInvisible(words[index] as string)).toEqual({ text: `a${marker}b`, hidden: 1 })
    }
  })

  it('leaves ordinary text of any script alone', () => {
    const text = 'grep -r "héllo wörld — 日本語 ✓" src/ # ok'
    expect(revealInvisible(text)).toEqual({ text, hidden: 0 })
  })
})

describe('commandName and commandStart', () => {
  it('leaves a short command as it is', () => {
    expect(commandName('echo hi')).toBe('echo hi')
    expect(commandStart('echo hi')).toBe('echo hi')
  })

  it('caps a long command with an ellipsis at the stated length', () => {
    const long = `echo ${'x'.repeat(100_000)}`
    const name = commandName(long)
    expect(name).toHaveLength(COMMAND_NAME_MAX_CHARS)
    expect(name.endsWith('…')).toBe(true)
    expect(name.startsWith('echo xxx')).toBe(true)
    expect(commandStart(long)).toHaveLength(COMMAND_START_MAX_CHARS)
  })

  it('names invisible characters instead of hiding them in the accessible name', () => {
    expect(commandName('rm\u202e -rf')).toBe('rm⟨U+202E⟩ -rf')
  })
})
