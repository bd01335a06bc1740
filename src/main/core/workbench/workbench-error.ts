/**
 * An error a UI caller can act on; `field` names the input at fault so the UI can show the
 * message next to it. The IPC layer turns it into `{code, message}`.
 */
export class WorkbenchError extends Error {
  override name = 'WorkbenchError'

  constructor(
    readonly code: 'invalid_input' | 'denied',
    message: string,
    readonly field?: string,
  ) {
    super(field ? `${field}: ${message}` : message)
  }
}
