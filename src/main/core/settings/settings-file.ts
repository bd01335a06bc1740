import { lstat, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { z } from 'zod'
import type { PermissionRules } from '../../../shared/settings'
import { ruleExamplesProblem } from '../permissions/rule-examples'
import {
  type OwnedFileContent,
  parseJsonQuietly,
  readOwnedFile,
  readOwnedFileSync,
  UnsafeFileError,
} from './owned-file'
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

/** One read of a settings file: what it holds, or why it is unusable, and the hash of its bytes. */
export type SettingsFileRead<T> =
  | { state: 'missing'; hash: null }
  | { state: 'valid'; value: T; hash: string }
  | { state: 'invalid'; reason: string; hash: string | null }

/**
 * Reads and validates one settings file without side effects. Symlinks, FIFOs and devices are
 * refused without being followed or blocking (readOwnedFile); no byte of an unusable file appears
 * in the reason, because a refused file may be someone else's secret.
 */
export async function readSettingsFileState<T>(
  path: string,
  schema: z.ZodType<T>,
): Promise<SettingsFileRead<T>> {
  let content: OwnedFileContent | null
  try {
    content = await readOwnedFile(path, SETTINGS_FILE_MAX_BYTES)
  } catch (error) {
    return unreadable(error)
  }
  return settingsFileStateOf(path, content, schema)
}

/** readSettingsFileState without the thread pool, for a small file on a command's critical path. */
export function readSettingsFileStateSync<T>(path: string, schema: z.ZodType<T>): SettingsFileRead<T> {
  let content: OwnedFileContent | null
  try {
    content = readOwnedFileSync(path, SETTINGS_FILE_MAX_BYTES)
  } catch (error) {
    return unreadable(error)
  }
  return settingsFileStateOf(path, content, schema)
}

function unreadable(error: unknown): { state: 'invalid'; reason: string; hash: null } {
  if (error instanceof UnsafeFileError) return { state: 'invalid', reason: error.detail, hash: null }
  return {
    state: 'invalid',
    reason: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    hash: null,
  }
}

function settingsFileStateOf<T>(
  path: string,
  content: OwnedFileContent | null,
  schema: z.ZodType<T>,
): SettingsFileRead<T> {
  if (content === null) return { state: 'missing', hash: null }
  const json = parseJsonQuietly(content.text)
  if (!json.ok) return { state: 'invalid', reason: json.reason, hash: content.hash }
  const parsed = schema.safeParse(json.value)
  if (!parsed.success) {
    return {
      state: 'invalid',
      reason: `does not match the settings schema: ${firstIssue(parsed.error).message}`,
      hash: content.hash,
    }
  }
  // A rule with examples that fail would be trusted for what it does not do: the file is invalid.
  const examples = ruleExamplesProblem(
    (parsed.data as { permissions?: PermissionRules }).permissions,
    dirname(path),
  )
  if (examples) return { state: 'invalid', reason: examples, hash: content.hash }
  return { state: 'valid', value: parsed.data, hash: content.hash }
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
): Promise<LoadedSettingsFile<T> & { read: SettingsFileRead<T> }> {
  const defaults = schema.parse({})
  const read = await readSettingsFileState(path, schema)
  if (read.state === 'missing') return { value: defaults, warning: null, read }
  if (read.state === 'valid') return { value: read.value, warning: null, read }
  if (options.keepInPlace) {
    // A file in the user's repository is theirs: never renamed or rewritten, only ignored.
    const reason = `${read.reason}; it is ignored and left as it is (nothing is written to it until it is fixed)`
    return { value: defaults, warning: { file: path, reason, backupPath: null }, read }
  }
  try {
    const backupPath = await moveAside(path, now)
    return {
      value: defaults,
      warning: { file: path, reason: read.reason, backupPath },
      read: { state: 'missing', hash: null },
    }
  } catch (error) {
    const reason = `${read.reason}; it could not be backed up (${(error as Error).message}), so it is left in place and will not be overwritten`
    return { value: defaults, warning: { file: path, reason, backupPath: null }, read }
  }
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
