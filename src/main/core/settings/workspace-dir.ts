import { lstat } from 'node:fs/promises'
import { join } from 'node:path'

export const WORKSPACE_SETTINGS_DIR = '.shellgate'
export const SETTINGS_FILE_NAME = 'settings.json'

export function workspaceSettingsFile(workspace: string): string {
  return join(workspace, WORKSPACE_SETTINGS_DIR, SETTINGS_FILE_NAME)
}

/**
 * A cloned repository controls its own `.shellgate`: if it is a symlink, reading would take rules
 * from (and writing would put files into) a folder the repository chose. Refused, with the reason.
 * The last component of the file itself is guarded by O_NOFOLLOW (readOwnedFile).
 */
export async function workspaceDirProblem(dir: string): Promise<string | null> {
  const stats = await lstat(dir).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? null : error,
  )
  if (stats === null) return null
  if (stats instanceof Error) return `its folder cannot be read: ${stats.code ?? 'error'}`
  if (stats.isSymbolicLink())
    return `its folder ${dir} is a symlink, which is refused; workspace rules are off`
  if (!stats.isDirectory()) return `${dir} is not a folder; workspace rules are off`
  return null
}
