import { describe, expect, it } from 'vitest'
import { revealInvisible } from '../../../src/renderer/format/reveal-invisible'

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
