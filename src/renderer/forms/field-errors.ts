import { RpcError } from '../../shared/ipc/errors'

export type FieldErrors<F extends string> = Partial<Record<F | 'form', string>>

/**
 * Places a server error next to the field it concerns. invalid_input messages read
 * `method: path: message` (e.g. `bash.run: timeout: must be a number`); the path, then each of its
 * segments from the last, is looked up in `fields` (server name → form field). Anything else goes
 * to the form as a whole.
 */
export function fieldErrorsFromRpc<F extends string>(
  error: unknown,
  fields: Readonly<Record<string, F>>,
): FieldErrors<F> {
  const message = error instanceof Error ? error.message : String(error)
  if (!(error instanceof RpcError) || error.code !== 'invalid_input')
    return { form: message } as FieldErrors<F>
  const withoutMethod = message.replace(/^[A-Za-z]+\.[A-Za-z]+: /, '')
  const match = /^([A-Za-z_][\w]*(?:\.[\w]+)*): ([\s\S]+)$/.exec(withoutMethod)
  if (match?.[1] && match[2]) {
    // The most specific known name wins: `network.httpProxy` is the httpProxy field, `answer.rule` the rule.
    const segments = match[1].split('.')
    const candidates = [match[1], ...segments.slice().reverse()]
    const known = candidates.find((name) => Object.hasOwn(fields, name))
    const field = known === undefined ? undefined : fields[known]
    if (field) return { [field]: match[2] } as FieldErrors<F>
  }
  return { form: withoutMethod } as FieldErrors<F>
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
