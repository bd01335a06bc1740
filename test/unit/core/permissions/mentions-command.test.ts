import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { decideBashPermission } from '../../../../src/main/core/permissions/decide-permission'
import { mentionsCommand } from '../../../../src/main/core/permissions/rule-match'

describe('mentionsCommand', () => {
  it.each([
    ['rm${IFS}-f x', ['rm'], true],
    ['git${IFS}push origin', ['git', 'push'], true],
    ['/bin/rm -f x', ['rm'], true],
    ['push git', ['git', 'push'], false],
    ['farm -f x', ['rm'], false],
    ['rmdir x', ['rm'], false],
    ['git status; echo push', ['git', 'push'], true],
    ['echo gitpush', ['git', 'push'], false],
  ])('%j mentions %j: %s', (text, words, expected) => {
    expect(mentionsCommand(text, words)).toBe(expected)
  })

  it('stays linear on a repeated word, which made a backtracking pattern take minutes', () => {
    // A hostile workspace deny rule of ten repeated words against a long, not permission-safe line:
    // the old lazy-gap RegExp needed (occurrences)^(words) steps; this returns at once. The answer,
    // not the time, is asserted; a regression hangs the test until its timeout.
    const command = `while true; do ${'echo hi; '.repeat(1_000)}done`
    const verdict = classifyCommand(command, { cwd: '/' })
    const decision = decideBashPermission({
      verdict,
      mode: 'build',
      ruleSets: [
        {
          source: 'workspace',
          file: '/w/.shellgate/settings.json',
          rules: { allow: [], ask: [], deny: [`${'echo '.repeat(10)}zz`] },
        },
      ],
    })
    expect(decision.outcome).toBe('ask')
    expect(mentionsCommand('echo '.repeat(5_000), [...Array(12).fill('echo'), 'zz'])).toBe(false)
  }, 10_000)
})
