/**
 * Bad input to a room below the transports (the executor, the sandbox planner), found before
 * anything starts. One base class so the wire maps every such error to `invalid_input` without
 * knowing which room threw it, and so no room imports another's error to say the same thing.
 */
export class InputError extends Error {
  override name = 'InputError'
  readonly code = 'invalid_input'
}
