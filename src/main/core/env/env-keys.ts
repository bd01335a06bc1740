/**
 * Environment variable names are case-insensitive on Windows (`Path` and `PATH` are one variable)
 * and case-sensitive elsewhere. Every read, write and delete in this room goes through these so a
 * stale `Path` cannot shadow the `PATH` we set.
 */
export type EnvRecord = Record<string, string>

function sameName(a: string, b: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? a.toUpperCase() === b.toUpperCase() : a === b
}

/** Every key in env that names the same variable as `name` on this platform. */
export function envKeysNamed(env: Readonly<EnvRecord>, name: string, platform: NodeJS.Platform): string[] {
  return Object.keys(env).filter((key) => sameName(key, name, platform))
}

export function readEnv(
  env: Readonly<EnvRecord>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  const exact = env[name]
  if (exact !== undefined) return exact
  const [other] = envKeysNamed(env, name, platform)
  return other === undefined ? undefined : env[other]
}

export function deleteEnv(env: EnvRecord, name: string, platform: NodeJS.Platform): void {
  for (const key of envKeysNamed(env, name, platform)) delete env[key]
}

/** Sets `name`, first removing every other spelling of it on Windows. */
export function writeEnv(env: EnvRecord, name: string, value: string, platform: NodeJS.Platform): void {
  deleteEnv(env, name, platform)
  env[name] = value
}

/** process.env may hold undefined values; the child env never does. */
export function toEnvRecord(env: NodeJS.ProcessEnv | Readonly<EnvRecord>): EnvRecord {
  const record: EnvRecord = {}
  for (const [key, value] of Object.entries(env)) if (typeof value === 'string') record[key] = value
  return record
}
