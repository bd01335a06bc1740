import { type WorkspaceNetworkSettings, WorkspaceNetworkSettingsSchema } from '../../../shared/settings'
import { swapFile } from './compare-and-swap'
import { localRulesFile, workspaceRealPath, workspaceRealPathSync } from './local-workspace-rules'
import { UnsafeFileError } from './owned-file'
import { readSettingsFileStateSync, SETTINGS_FILE_MAX_BYTES } from './settings-file'
import { freshValue, sameJson } from './settings-file-state'
import { firstIssue, SettingsError } from './settings-error'

/**
 * One workspace's sandbox network (allowed host ports, domains allowed or denied), kept on this
 * machine beside its local rules: SHELLGATE_HOME/workspaces/<hash of its real path>.network.json.
 * Nothing comes from the repository, so a cloned project cannot open a port to the person's database.
 */
export function workspaceNetworkFile(home: string, realWorkspace: string): string {
  return localRulesFile(home, realWorkspace).replace(/\.json$/, '.network.json')
}

export interface WorkspaceNetworkRead {
  file: string
  value: WorkspaceNetworkSettings
  /** Why the file on disk is not used (then nothing is allowed and nothing is written over it), or null. */
  problem: string | null
}

/**
 * An unusable file allows nothing (fails closed) and is reported; it is never replaced by a write.
 * Read once per networked command, before it starts: synchronously, since the file is small and
 * each thread-pool round trip of an async read cost more than the read (see readOwnedFileSync).
 */
export async function readWorkspaceNetwork(home: string, workspace: string): Promise<WorkspaceNetworkRead> {
  return readWorkspaceNetworkSync(home, workspaceRealPathSync(workspace))
}

export function readWorkspaceNetworkSync(home: string, realWorkspace: string): WorkspaceNetworkRead {
  const file = workspaceNetworkFile(home, realWorkspace)
  const read = readSettingsFileStateSync(file, WorkspaceNetworkSettingsSchema)
  const value = read.state === 'valid' ? read.value : WorkspaceNetworkSettingsSchema.parse({})
  const problem = read.state === 'invalid' ? `${file} ${read.reason}; no port or domain in it applies` : null
  return { file, value, problem }
}

/**
 * Re-applies `change` to the file as it is on disk (compare-and-swap with any other writer) and
 * validates the result; a bad value throws SettingsError naming the field, and nothing is written.
 */
export async function updateWorkspaceNetwork(
  home: string,
  workspace: string,
  change: (fresh: WorkspaceNetworkSettings) => WorkspaceNetworkSettings,
): Promise<WorkspaceNetworkRead> {
  const real = await workspaceRealPath(workspace)
  const file = workspaceNetworkFile(home, real)
  let value: WorkspaceNetworkSettings | undefined
  await swapFile(file, SETTINGS_FILE_MAX_BYTES, (current) => {
    const fresh = freshValue(file, current, WorkspaceNetworkSettingsSchema)
    const parsed = WorkspaceNetworkSettingsSchema.safeParse({ ...change(fresh), workspace: real })
    if (!parsed.success) throw firstIssue(parsed.error, [], WorkspaceNetworkSettingsSchema)
    value = parsed.data
    return sameJson(fresh, value) ? null : `${JSON.stringify(value, null, 2)}\n`
  }).catch((error: unknown) => {
    if (error instanceof UnsafeFileError)
      throw new SettingsError('', `${error.message}; nothing was written`, 'unwritable')
    throw error
  })
  return { file, value: value!, problem: null }
}
