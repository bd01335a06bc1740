import { dirname, join } from 'node:path'
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
import { readSettingsFileState, SETTINGS_FILE_MAX_BYTES } from '../settings/settings-file'
import { workspaceDirProblem, workspaceSettingsFile } from '../settings/workspace-dir'
import type { RuleSet } from './permission-types'

/**
 * A read-only look at the two settings files for a one-shot caller (the CLI). Unlike the settings
 * store, it never moves an unusable file aside: a file that cannot be read stays where it is and
 * the caller is refused every time, because running with defaults would silently drop its deny
 * rules.
 */

export { SETTINGS_FILE_MAX_BYTES }

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
  const workspaceFile = workspaceSettingsFile(workspace)
  const dirProblem = await workspaceDirProblem(dirname(workspaceFile))
  if (dirProblem) throw new SettingsFileError(workspaceFile, dirProblem)
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

/**
 * The file's settings, the defaults when it does not exist; throws SettingsFileError otherwise.
 * The same checks as the app's store (readSettingsFileState): a symlink, FIFO or over-cap file is
 * refused without being followed, read or blocked on, and the message never quotes the file.
 */
export async function readSettingsFile<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  const read = await readSettingsFileState(path, schema)
  if (read.state === 'missing') return schema.parse({})
  if (read.state === 'invalid') throw new SettingsFileError(path, read.reason)
  return read.value
}
