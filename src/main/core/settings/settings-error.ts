import type { z } from 'zod'
import { plainIssue } from '../../../shared/ipc/plain-issue'

/**
 * A settings change that was refused; nothing was written. `field` is the dotted path at fault.
 * invalid_input: the change itself is wrong; unwritable: the target file must not be replaced.
 */
export class SettingsError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly code: 'invalid_input' | 'unwritable' = 'invalid_input',
  ) {
    super(field ? `${field}: ${message}` : message)
    this.name = 'SettingsError'
  }
}

/** The first zod issue as a field path and a message a user can act on (in words, with its range when `schema` is given). */
export function firstIssue(
  error: z.ZodError,
  prefix: readonly PropertyKey[] = [],
  schema?: z.ZodType,
): SettingsError {
  const issue = error.issues[0]
  const field = [...prefix, ...(issue?.path ?? [])].map(String).join('.')
  return new SettingsError(field, issue ? plainIssue(issue as never, schema) : 'invalid value')
}
