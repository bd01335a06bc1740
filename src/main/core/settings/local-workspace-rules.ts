import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { PermissionRulesSchema } from '../../../shared/settings'

/**
 * "Always allow … in this workspace" is the person's choice, not the repository's: it is kept on
 * this machine, under SHELLGATE_HOME, in one file per workspace keyed by the workspace's real path
 * (so a symlinked checkout and its target share rules, and a clone elsewhere starts clean). Nothing
 * is written into the repository, so `git status` stays clean; sharing rules with the repository
 * is the separate, explicit `workspace` scope (`<workspace>/.shellgate/settings.json`).
 */
export const LOCAL_RULES_DIR = 'workspaces'

export const LocalWorkspaceSettingsSchema = z.object({
  /** The real path this file belongs to; informative (the file name is its hash). */
  workspace: z.string().max(4_096).optional(),
  permissions: PermissionRulesSchema.default({ allow: [], ask: [], deny: [] }),
})
export type LocalWorkspaceSettings = z.infer<typeof LocalWorkspaceSettingsSchema>

/** The workspace's real path, or the path as given when it cannot be resolved. */
export async function workspaceRealPath(workspace: string): Promise<string> {
  return realpath(workspace).catch(() => workspace)
}

/** The same, without the thread pool (a command's critical path). */
export function workspaceRealPathSync(workspace: string): string {
  try {
    return realpathSync.native(workspace)
  } catch {
    return workspace
  }
}

/** SHELLGATE_HOME/workspaces/<sha256(real path), 32 hex>.json */
export function localRulesFile(home: string, realWorkspace: string): string {
  const key = createHash('sha256').update(realWorkspace).digest('hex').slice(0, 32)
  return join(home, LOCAL_RULES_DIR, `${key}.json`)
}
