import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import { readRecentWorkspaces, resolveChosenWorkspace } from '../../core/settings/recent-workspaces'
import type { Handlers } from '../dispatcher'
import { waitingAgents } from './waiting-agents'

type WorkspaceHandlers = Pick<Handlers<ShellgateContract>, 'workspaces.recent' | 'workspaces.choose'>

/**
 * The person's folder: chosen once when Shellgate started without one (choosing it again is fine,
 * another one is refused and says how). Agents never wait on it: they bring their own.
 */
export function workspaceHandlers(core: Core): WorkspaceHandlers {
  return {
    'workspaces.recent': async () => ({
      current: core.workspace,
      recent: await readRecentWorkspaces(core.dataDir),
      agents: waitingAgents(core),
    }),
    'workspaces.choose': async ({ workspace }) => ({
      workspace: await core.chooseWorkspace(await resolveChosenWorkspace(workspace)),
    }),
  }
}
