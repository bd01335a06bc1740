import { RpcError } from '../../shared/ipc/errors'

export type FieldErrors<F extends string> = Partial<Record<F | 'form', string>>

/**
 * Places a server error next to the field it concerns. invalid_input messages read
 * `method: path: message` (e.g. `bash.run: timeout: must be a number`); the first path segment is
 * looked up in `fields` (server name → form field). Anything else goes to the form as a whole.
 */
export function fieldErrorsFromRpc<F extends string>(
  error: unknown,
  fields: Readonly<Record<string, F>>,
): FieldErrors<F> {
  const message = error instanceof Error ? error.message : String(error)
  if (!(error instanceof RpcError) || error.code !== 'invalid_input')
    return { form: message } as FieldErrors<F>
  const withoutMethod = message.replace(/^[A-Za-z]+\.[A-Za-z]+: /, '')
  const match = /^([A-Za-z_][\w]*)(?:\.[\w.]+)?: ([\s\S]+)$/.exec(withoutMethod)
  const field = match?.[1] !== undefined && Object.hasOwn(fields, match[1]) ? fields[match[1]] : undefined
  if (field && match?.[2]) return { [field]: match[2] } as FieldErrors<F>
  return { form: withoutMethod } as FieldErrors<F>
}

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.values(errors).some(Boolean)
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
