import { type EnvRecord, toEnvRecord } from './env-keys'
import { entryKeyFate, TOOL_ENV_PASSTHROUGH_KEY } from './sanitize-keys'

export interface EntrySanitising {
  /** The runtime env: what the app itself runs with, sealed values only inside the passthrough. */
  env: EnvRecord
  /** Names (never values) sealed for children, sorted. */
  sealedKeys: string[]
  /** Names removed for good, sorted. */
  droppedKeys: string[]
}

/**
 * First thing every entry (Electron main, CLI, serve) does: proxies, NO_PROXY and certificates
 * move into SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON so the app's own HTTP cannot pick them up by
 * accident, and NODE_ENV, telemetry and shell-init overrides disappear.
 *
 * Idempotent: an existing passthrough is opened and re-sealed, keeping only keys that are
 * sealable anyway, so it grants nothing a parent could not already set directly.
 */
export function sanitizeEntryEnvDetailed(
  env: NodeJS.ProcessEnv | Readonly<EnvRecord>,
  // Matching is case-insensitive on every platform, so the platform changes nothing today; callers
  // pass it anyway so a Windows-only rule has a place to go.
  _platform: NodeJS.Platform,
): EntrySanitising {
  const source = toEnvRecord(env)
  const sealed: EnvRecord = readSealedEnv(source)
  const runtime: EnvRecord = {}
  const droppedKeys: string[] = []
  for (const [key, value] of Object.entries(source)) {
    const fate = entryKeyFate(key)
    if (fate === 'keep') runtime[key] = value
    else if (fate === 'seal') sealed[key] = value
    else if (key !== TOOL_ENV_PASSTHROUGH_KEY) droppedKeys.push(key)
  }
  const sealedKeys = Object.keys(sealed).sort()
  if (sealedKeys.length > 0) runtime[TOOL_ENV_PASSTHROUGH_KEY] = JSON.stringify(sealed)
  return { env: runtime, sealedKeys, droppedKeys: droppedKeys.sort() }
}

export function sanitizeEntryEnv(
  env: NodeJS.ProcessEnv | Readonly<EnvRecord>,
  platform: NodeJS.Platform,
): EnvRecord {
  return sanitizeEntryEnvDetailed(env, platform).env
}

/** The sealed values, by their original names; a malformed passthrough seals nothing. */
export function readSealedEnv(runtimeEnv: Readonly<EnvRecord> | NodeJS.ProcessEnv): EnvRecord {
  const raw = runtimeEnv[TOOL_ENV_PASSTHROUGH_KEY]
  if (!raw) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
  const sealed: EnvRecord = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' && entryKeyFate(key) === 'seal') sealed[key] = value
  }
  return sealed
}

let atEntry: Omit<EntrySanitising, 'env'> = { sealedKeys: [], droppedKeys: [] }

/** What the process entry sealed and dropped (names only), for `shellgate env` and Settings. */
export function entrySanitisingReport(): Omit<EntrySanitising, 'env'> {
  return atEntry
}

/**
 * Replaces the contents of process.env in place (Node keeps one process.env object; other
 * modules may already hold it). Returns what was sealed and dropped, names only.
 */
export function sanitizeProcessEnvInPlace(
  processEnv: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): Omit<EntrySanitising, 'env'> {
  const { env, sealedKeys, droppedKeys } = sanitizeEntryEnvDetailed(processEnv, platform)
  for (const key of Object.keys(processEnv)) if (!Object.hasOwn(env, key)) delete processEnv[key]
  Object.assign(processEnv, env)
  atEntry = { sealedKeys, droppedKeys }
  return atEntry
}
