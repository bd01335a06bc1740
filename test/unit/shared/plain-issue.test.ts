import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { formatDurationBound, plainIssue } from '../../../src/shared/ipc/plain-issue'
import { LimitsSettingsSchema } from '../../../src/shared/settings'

const firstIssue = (schema: z.ZodType, value: unknown) => {
  const issue = schema.safeParse(value).error?.issues[0]
  if (!issue) throw new Error('expected an issue')
  return plainIssue(issue, schema)
}

describe('schema problems in words (issue 14.8)', () => {
  const network = z.object({ timeoutMs: z.number().int().positive().max(3_600_000).nullable() }).strict()

  it('names the field and the whole range, in units a person uses', () => {
    expect(firstIssue(network, { timeoutMs: 4_000_000 })).toBe('Timeout must be between 1 ms and 60 minutes')
    expect(firstIssue(network, { timeoutMs: 0 })).toBe('Timeout must be between 1 ms and 60 minutes')
    expect(firstIssue(LimitsSettingsSchema, { defaultTimeoutMs: 700_000 })).toBe(
      'Default timeout must be between 1 ms and 10 minutes',
    )
    expect(firstIssue(LimitsSettingsSchema, { maxOutputLength: 200_000 })).toBe(
      'Max output length must be between 1 and 150,000',
    )
  })

  it('says the kind expected, the options, and unknown fields, never the library text', () => {
    expect(firstIssue(network, { timeoutMs: 1.5 })).toBe('Timeout must be a whole number')
    expect(firstIssue(network, { timeoutMs: 'soon' })).toBe('Timeout must be a number')
    expect(firstIssue(z.object({ mode: z.enum(['build', 'plan']) }), { mode: 'fast' })).toBe(
      'Mode must be one of build, plan',
    )
    expect(firstIssue(network, { timeoutMs: 1, extra: 1 })).toBe('unknown field "extra"')
    expect(firstIssue(z.object({ title: z.string().max(3) }), { title: 'long' })).toBe(
      'Title must be at most 3 characters',
    )
  })

  it('keeps a message the schema spells out itself', () => {
    expect(firstIssue(z.string().min(1, 'a rule cannot be empty'), '')).toBe('a rule cannot be empty')
  })

  it.each([
    [1, '1 ms'],
    [1_000, '1 second'],
    [600_000, '10 minutes'],
    [3_600_000, '60 minutes'],
    [86_400_000, '24 hours'],
    [1_500, '1,500 ms'],
  ])('%d ms reads as %s', (ms, words) => {
    expect(formatDurationBound(ms)).toBe(words)
  })
})
