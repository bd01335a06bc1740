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
    delete env[key]
    return
  }
  const lower = key.toLowerCase()
  for (const name of Object.keys(env)) {
    if (name.toLowerCase() === lower) delete env[name]
  }
}
