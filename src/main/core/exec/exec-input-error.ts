/** Bad input to the executor, detected before anything is spawned. */
export class ExecInputError extends Error {
  override name = 'ExecInputError'
  readonly code = 'invalid_input'
}
