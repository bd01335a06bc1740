import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'

/** Ids become path segments; anything else could climb out of the output root. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/

/**
 * seed 000: a Bash call writes to `<root>/<session id>/<call id>-stdout.log`. Creates the session
 * folder (0700: output may hold secrets) and returns the file path; the port creates the file.
 */
export async function prepareTaskOutputPath(
  outputRoot: string,
  sessionId: string,
  callId: string,
): Promise<string> {
  for (const [name, value] of [
    ['session id', sessionId],
    ['call id', callId],
  ] as const) {
    if (!SAFE_SEGMENT.test(value)) {
      throw new Error(`${name} must be 1-128 letters, digits, "-" or "_", got ${JSON.stringify(value)}`)
    }
  }
  const dir = join(outputRoot, sessionId)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  return join(dir, `${callId}-stdout.log`)
}
