import type { z } from 'zod'
import { parseJsonQuietly } from './owned-file'
import { firstIssue, SettingsError } from './settings-error'
import { readSettingsFileState, type SettingsFileRead, type SettingsWarning } from './settings-file'

/** One file's last good value and the hash of the bytes last seen on disk (null: no file). */
export interface FileState<T> {
  value: T
  hash: string | null
  /** Why the bytes on disk are not in effect; null when they are. */
  problem: SettingsWarning | null
}

/**
 * Re-reads one file after an edit on disk. Valid new content replaces the value ('changed' when it
 * differs); unusable content is reported once per distinct content and the last good value stays.
 * `dirProblem` is why the file's folder is refused, if it is.
 */
export async function rereadFileState<T>(
  state: FileState<T>,
  file: string,
  schema: z.ZodType<T>,
  dirProblem: string | null,
): Promise<SettingsWarning | 'changed' | null> {
  const read: SettingsFileRead<T> = dirProblem
    ? { state: 'invalid', reason: dirProblem, hash: null }
    : await readSettingsFileState(file, schema)
  if (read.state === 'invalid') {
    const known = state.problem?.reason.startsWith(read.reason) && state.hash === read.hash
    if (known) return null
    state.hash = read.hash
    state.problem = {
      file,
      reason: `${read.reason}; the last good settings stay in force until it is fixed`,
      backupPath: null,
    }
    return state.problem
  }
  if (read.hash === state.hash && state.problem === null) return null
  const value = read.state === 'valid' ? read.value : schema.parse({})
  const previous = JSON.stringify(state.value)
  // A warning that goes away is a change too, even when the fix restores the last good content:
  // every window shows the warning until it hears of it.
  const hadProblem = state.problem !== null
  state.value = value
  state.hash = read.hash
  state.problem = null
  return JSON.stringify(value) === previous && !hadProblem ? null : 'changed'
}

/**
 * The file's value as it is now, for a change to be re-applied on. A file that is unusable now
 * (a bad hand edit in progress, a planted FIFO) is refused rather than replaced: that edit is the
 * person's, and writing over it would lose it.
 */
export function freshValue<T>(file: string, current: { text: string } | null, schema: z.ZodType<T>): T {
  if (current === null) return schema.parse({})
  const json = parseJsonQuietly(current.text)
  const parsed = json.ok ? schema.safeParse(json.value) : null
  if (parsed?.success) return parsed.data
  const reason = json.ok
    ? `does not match the settings schema (${firstIssue(parsed!.error!).message})`
    : json.reason
  throw new SettingsError(
    '',
    `${file} as it is on disk now ${reason}; nothing was written over it (fix or remove it first)`,
    'unwritable',
  )
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
