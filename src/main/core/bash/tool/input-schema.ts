import { z } from 'zod'

/**
 * The Bash tool's input (seed 003, 输入与提示词): a strict object, tolerant of the string numbers
 * and string booleans models sometimes emit.
 */

const TRUE_WORDS = new Set(['true', 'yes', '1', 'on'])
const FALSE_WORDS = new Set(['false', 'no', '0', 'off'])

/** true/false, or "true"/"yes"/"1"/"on" and "false"/"no"/"0"/"off" in any case. */
export const LenientBooleanSchema = z.unknown().transform((value, ctx): boolean => {
  if (typeof value === 'boolean') return value
  const word = typeof value === 'string' ? value.trim().toLowerCase() : null
  if (word !== null && TRUE_WORDS.has(word)) return true
  if (word !== null && FALSE_WORDS.has(word)) return false
  ctx.addIssue({
    code: 'custom',
    message: `expected a boolean (true/yes/1/on or false/no/0/off), got ${JSON.stringify(value)}`,
  })
  return z.NEVER
})

/** Milliseconds as a number or a string of digits; 0 means "the default". */
export const TimeoutMsSchema = z.unknown().transform((value, ctx): number => {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value
  if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) return number
  ctx.addIssue({
    code: 'custom',
    message: `timeout must be whole milliseconds ≥ 0, e.g. 120000; got ${JSON.stringify(value)}`,
  })
  return z.NEVER
})

export const BashToolInputSchema = z.strictObject({
  command: z.string().max(10_000_000, 'command is over 10 MB'),
  /** Capped at BASH_MAX_TIMEOUT_MS by the timeout policy, not rejected. */
  timeout: TimeoutMsSchema.optional(),
  /** What the command does, in active voice (5–10 words for simple commands). */
  description: z.string().max(1_000).optional(),
  run_in_background: LenientBooleanSchema.optional(),
  /** Run on a pseudo-terminal: a background task that takes input (issue 23.1). */
  tty: LenientBooleanSchema.optional(),
  /** Answer once the output matches this regular expression or `port:N` listens (issue 23.3). */
  wait_for: z.string().min(1, 'wait_for is empty').max(1_000, 'wait_for is over 1000 characters').optional(),
  /** Accepted for compatibility; Shellgate has no sandbox to disable and ignores it (as the seed does). */
  dangerouslyDisableSandbox: LenientBooleanSchema.optional(),
})
export type BashToolInput = z.output<typeof BashToolInputSchema>

/** Parses tool input; throws an Error naming the first bad field. */
export function parseBashToolInput(input: unknown): BashToolInput {
  const parsed = BashToolInputSchema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? issue.path.join('.') : 'input'
  throw new Error(`invalid Bash tool input: ${where}: ${issue?.message ?? 'not an object'}`)
}
