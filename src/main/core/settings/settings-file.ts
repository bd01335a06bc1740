import { lstat, readFile, rename } from 'node:fs/promises'
import type { z } from 'zod'
import { firstIssue } from './settings-error'

/** Far above any real settings file; refuses a hostile workspace pointing us at a huge file. */
export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024

/** Shown by the UI: which file was unusable, why, and where its content was kept. */
export interface SettingsWarning {
  file: string
  reason: string
  /** Where the unusable file was moved; null when it could not be moved (then it is never overwritten). */
  backupPath: string | null
}

export interface LoadedSettingsFile<T> {
  value: T
  warning: SettingsWarning | null
}

/**
 * Reads one settings file. A missing file means defaults. A file that is not usable (not JSON, not
 * valid for the schema, not a regular file, too big) is moved aside as a backup so it is never lost,
 * and the defaults are used with a warning.
 */
export async function loadSettingsFile<T>(
  path: string,
  schema: z.ZodType<T>,
  now: Date = new Date(),
  options: { keepInPlace?: boolean } = {},
): Promise<LoadedSettingsFile<T>> {
  const defaults = schema.parse({})
  const problem = await readProblem(path, schema)
  if (problem === null) return { value: defaults, warning: null }
  if ('value' in problem) return { value: problem.value, warning: null }
  if (options.keepInPlace) {
    // A file in the user's repository is theirs: never renamed or rewritten, only ignored.
    const reason = `${problem.reason}; it is ignored and left as it is (nothing is written to it until it is fixed)`
    return { value: defaults, warning: { file: path, reason, backupPath: null } }
  }
  try {
    const backupPath = await moveAside(path, now)
    return { value: defaults, warning: { file: path, reason: problem.reason, backupPath } }
  } catch (error) {
    const reason = `${problem.reason}; it could not be backed up (${(error as Error).message}), so it is left in place and will not be overwritten`
    return { value: defaults, warning: { file: path, reason, backupPath: null } }
  }
}

async function readProblem<T>(
  path: string,
  schema: z.ZodType<T>,
): Promise<null | { value: T } | { reason: string }> {
  let stats: Awaited<ReturnType<typeof lstat>>
  try {
    stats = await lstat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    return { reason: `cannot be read: ${(error as Error).message}` }
  }
  if (!stats.isFile()) return { reason: 'is not a regular file (a symlink or a directory is refused)' }
  if (stats.size > SETTINGS_FILE_MAX_BYTES) {
    return { reason: `is ${stats.size} bytes, over the ${SETTINGS_FILE_MAX_BYTES}-byte limit` }
  }
  let json: unknown
  try {
    json = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    return { reason: `is not valid JSON: ${(error as Error).message}` }
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success)
    return { reason: `does not match the settings schema: ${firstIssue(parsed.error).message}` }
  return { value: parsed.data }
}

/** `<file>.bak`, or a timestamped name when an earlier backup exists, so no backup is ever replaced. */
async function moveAside(path: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  const candidates = [`${path}.bak`, `${path}.${stamp}.bak`]
  for (let n = 1; n <= 100; n++) candidates.push(`${path}.${stamp}-${n}.bak`)
  for (const candidate of candidates) {
    if (await exists(candidate)) continue
    await rename(path, candidate)
    return candidate
  }
  throw new Error('too many backups already exist')
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
