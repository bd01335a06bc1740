import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { z } from 'zod'
import {
  type UserSettings,
  UserSettingsSchema,
  type WorkspaceSettings,
  WorkspaceSettingsSchema,
} from '../../../shared/settings'
import {
  LocalWorkspaceSettingsSchema,
  localRulesFile,
  workspaceRealPath,
} from '../settings/local-workspace-rules'
import type { RuleSet } from './permission-types'

/**
 * A read-only look at the two settings files for a one-shot caller (the CLI). Unlike the settings
 * store, it never moves an unusable file aside: a file that cannot be read stays where it is and
 * the caller is refused every time, because running with defaults would silently drop its deny
 * rules.
 */

export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024

export class SettingsFileError extends Error {
  override name = 'SettingsFileError'
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file} is unusable (${reason}); fix it before running commands`)
  }
}

export interface CommandSettings {
  user: UserSettings
  workspace: WorkspaceSettings
  userFile: string
  workspaceFile: string
  /** This machine's workspace rules, the repository's, then the user's, each naming its file. */
  ruleSets: RuleSet[]
}

export async function readCommandSettings(home: string, workspace: string): Promise<CommandSettings> {
  const userFile = join(home, 'settings.json')
  const workspaceFile = join(workspace, '.shellgate', 'settings.json')
  const localFile = localRulesFile(home, await workspaceRealPath(workspace))
  const [user, workspaceSettings, local] = await Promise.all([
    readSettingsFile(userFile, UserSettingsSchema),
    readSettingsFile(workspaceFile, WorkspaceSettingsSchema),
    readSettingsFile(localFile, LocalWorkspaceSettingsSchema),
  ])
  const { mode: _mode, ...userRules } = user.permissions
  return {
    user,
    workspace: workspaceSettings,
    userFile,
    workspaceFile,
    ruleSets: [
      { source: 'local', file: localFile, rules: local.permissions },
      { source: 'workspace', file: workspaceFile, rules: workspaceSettings.permissions },
      { source: 'user', file: userFile, rules: userRules },
    ],
  }
}

/** The file's settings, the defaults when it does not exist; throws SettingsFileError otherwise. */
export async function readSettingsFile<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw new SettingsFileError(path, error.code ?? error.message)
  })
  if (info === null) return schema.parse({})
  if (!info.isFile()) throw new SettingsFileError(path, 'not a regular file')
  if (info.size > SETTINGS_FILE_MAX_BYTES)
    throw new SettingsFileError(path, `over ${SETTINGS_FILE_MAX_BYTES} bytes`)
  let data: unknown
  try {
    data = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new SettingsFileError(path, `not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  const parsed = schema.safeParse(data)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new SettingsFileError(path, `${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}`)
}
