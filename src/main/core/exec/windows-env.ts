/** Windows environment names are case-insensitive: `Path` and `PATH` are one variable. */

export function getEnvValue(
  env: Record<string, string | undefined>,
  key: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== 'win32') return env[key]
  const lower = key.toLowerCase()
  for (const [name, value] of Object.entries(env)) {
    if (name.toLowerCase() === lower) return value
  }
  return undefined
}

/** Sets `key`, first removing every differently-cased duplicate on win32 (which one wins is undefined there). */
export function setEnvValue(
  env: Record<string, string>,
  key: string,
  value: string,
  platform: NodeJS.Platform,
): Record<string, string> {
  deleteEnvValue(env, key, platform)
  env[key] = value
  return env
}

export function deleteEnvValue(env: Record<string, string>, key: string, platform: NodeJS.Platform): void {
  if (platform !== 'win32') {
    // A delete turns the object into a slow dictionary that spawn then walks; most envs lack the key.
    if (Object.hasOwn(env, key)) delete env[key]
    return
  }
  const lower = key.toLowerCase()
  for (const name of Object.keys(env)) {
    if (name.toLowerCase() === lower) delete env[name]
  }
}

/**
 * A child env on win32 holds one key per variable: `Path` and `PATH` in one block are two entries
 * Windows treats as one, and which one a program reads is undefined. Duplicates are merged: the
 * value set last (insertion order) is kept, under the spelling the parent process uses (`Path` on
 * a stock Windows), else the first spelling seen.
 */
export function mergeWindowsEnvKeys(
  env: Record<string, string>,
  parentEnv: Record<string, string | undefined>,
): Record<string, string> {
  const groups = new Map<string, string[]>()
  for (const key of Object.keys(env)) {
    const lower = key.toLowerCase()
    groups.set(lower, [...(groups.get(lower) ?? []), key])
  }
  const parentSpelling = new Map(Object.keys(parentEnv).map((key) => [key.toLowerCase(), key]))
  const merged: Record<string, string> = {}
  for (const [lower, keys] of groups) {
    const value = env[keys[keys.length - 1]!]!
    // A single spelling is left as the caller wrote it.
    merged[keys.length === 1 ? keys[0]! : (parentSpelling.get(lower) ?? keys[0]!)] = value
  }
  return merged
}
