import type { EnvRecord } from './env-keys'

import { isCredentialName } from '../secrets/credential-env-names'

/** The rule lives in the secrets room, shared with the verdict; re-exported for the env room's callers. */
export { isCredentialName }

export interface CredentialWithholding {
  env: EnvRecord
  /** Credential-like names removed, sorted. */
  withheldKeys: string[]
  /** Credential-like names kept because the user passed them through, sorted. */
  passedThroughKeys: string[]
}

/**
 * Removes credential-like variables except the ones passed through. Names are compared as the
 * platform compares them: exactly on POSIX, case-insensitively on Windows.
 */
export function withholdCredentials(
  env: Readonly<EnvRecord>,
  passThrough: readonly string[],
  platform: NodeJS.Platform,
): CredentialWithholding {
  const fold = (name: string) => (platform === 'win32' ? name.toUpperCase() : name)
  const allowed = new Set(passThrough.map(fold))
  const kept: EnvRecord = {}
  const withheldKeys: string[] = []
  const passedThroughKeys: string[] = []
  for (const [key, value] of Object.entries(env)) {
    if (!isCredentialName(key)) kept[key] = value
    else if (allowed.has(fold(key))) {
      kept[key] = value
      passedThroughKeys.push(key)
    } else withheldKeys.push(key)
  }
  return { env: kept, withheldKeys: withheldKeys.sort(), passedThroughKeys: passedThroughKeys.sort() }
}
