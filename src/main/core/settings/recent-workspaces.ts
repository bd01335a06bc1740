import { mkdir, readFile, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from './atomic-write'
import { SettingsError } from './settings-error'

/** Offered first when Shellgate starts without --workspace; the newest first. */
export const RECENT_WORKSPACES_KEPT = 10
export const RECENT_WORKSPACES_FILE = 'recent-workspaces.json'

const RecentFileSchema = z.object({
  version: z.literal(1),
  workspaces: z.array(z.string().max(4_096)).max(100),
})

export async function readRecentWorkspaces(home: string): Promise<string[]> {
  const text = await readFile(join(home, RECENT_WORKSPACES_FILE), 'utf8').catch(() => null)
  if (text === null) return []
  try {
    const parsed = RecentFileSchema.safeParse(JSON.parse(text))
    // An unreadable list is only a convenience lost: start a new one.
    return parsed.success ? parsed.data.workspaces.slice(0, RECENT_WORKSPACES_KEPT) : []
  } catch {
    return []
  }
}

/** Puts `workspace` first (once), keeps RECENT_WORKSPACES_KEPT. */
export async function rememberWorkspace(home: string, workspace: string): Promise<string[]> {
  const recent = [workspace, ...(await readRecentWorkspaces(home)).filter((w) => w !== workspace)].slice(
    0,
    RECENT_WORKSPACES_KEPT,
  )
  await mkdir(home, { recursive: true, mode: 0o700 })
  await writeFileAtomic(
    join(home, RECENT_WORKSPACES_FILE),
    `${JSON.stringify({ version: 1, workspaces: recent }, null, 2)}\n`,
  )
  return recent
}

/** An absolute path to an existing directory, as its real path; SettingsError('workspace') otherwise. */
export async function resolveChosenWorkspace(path: string): Promise<string> {
  const trimmed = path.trim()
  if (!isAbsolute(trimmed)) throw new SettingsError('workspace', `"${trimmed}" is not an absolute path`)
  const info = await stat(trimmed).catch(() => null)
  if (!info) throw new SettingsError('workspace', `${trimmed} does not exist`)
  if (!info.isDirectory()) throw new SettingsError('workspace', `${trimmed} is not a folder`)
  return realpath(trimmed)
}
