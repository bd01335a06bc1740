/** Bad command-line input: printed as one line on stderr, exit code 2, nothing started. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export const EXIT_USAGE = 2
