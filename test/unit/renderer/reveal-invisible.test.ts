import { describe, expect, it } from 'vitest'
import { revealInvisible } from '../../../src/renderer/format/reveal-invisible'
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
