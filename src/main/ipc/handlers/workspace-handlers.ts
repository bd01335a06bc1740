import { realpath } from 'node:fs/promises'
import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import { readRecentWorkspaces, resolveChosenWorkspace } from '../../core/settings/recent-workspaces'
import type { Handlers } from '../dispatcher'
import { waitingAgents } from './waiting-agents'

type WorkspaceHandlers = Pick<Handlers<ShellgateContract>, 'workspaces.recent' | 'workspaces.choose'>

/** Once a core runs, its workspace is fixed: choosing it again is fine, another one is refused and says how. */
export function workspaceHandlers(core: Core): WorkspaceHandlers {
  return {
    'workspaces.recent': async () => ({
      current: core.workspace,
      recent: await readRecentWorkspaces(core.dataDir),
      agents: waitingAgents(core),
    }),
    'workspaces.choose': async ({ workspace }) => {
      const chosen = await resolveChosenWorkspace(workspace)
      if (chosen !== (await realpath(core.workspace).catch(() => core.workspace)))
        throw new RpcError(
          'invalid_input',
          `workspaces.choose: workspace: this Shellgate already works in ${core.workspace}; start another with --workspace ${chosen}`,
        )
      return { workspace: core.workspace }
    },
  }
}
