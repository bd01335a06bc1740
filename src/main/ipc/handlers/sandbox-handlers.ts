import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import type { WorkspaceNetworkRead } from '../../core/settings/workspace-network-file'
import type { WorkspaceNetworkView } from '../../../shared/ipc/domains/sandbox'
import { checkSandboxSettings } from '../../core/sandbox/sandbox-settings-check'
import type { Handlers } from '../dispatcher'
import { settingsHandlers } from './settings-handlers'

type SandboxHandlers = Pick<
  Handlers<ShellgateContract>,
  'settings.setSandbox' | 'sandbox.status' | 'sandbox.workspaceNetwork' | 'sandbox.setWorkspaceNetwork'
>

export function sandboxHandlers(core: Core, home: string): SandboxHandlers {
  const settings = settingsHandlers(core)
  return {
    'settings.setSandbox': async (sandbox, context) => {
      // A bad entry is refused here with its reason; one that goes bad later (a cache deleted)
      // is reported by sandbox.status and in the command's result instead.
      const problem = checkSandboxSettings(sandbox, home)[0]
      if (problem) throw new RpcError('invalid_input', `settings.setSandbox: ${problem.message}`)
      await core.settings.updateUser({ sandbox } as never)
      return settings['settings.get']({}, context)
    },
    'sandbox.status': async () => core.sandbox.status(core.settings.user().sandbox),
    'sandbox.workspaceNetwork': async ({ sessionId }) => {
      const workspace = workspaceOf(core, sessionId)
      return workspaceNetworkView(workspace, await core.networkRules.workspace(workspace))
    },
    'sandbox.setWorkspaceNetwork': async ({ sessionId, ...next }) => {
      const workspace = workspaceOf(core, sessionId)
      return workspaceNetworkView(workspace, await core.networkRules.setWorkspace(workspace, next))
    },
  }
}

/** A session's workspace, or the window's own; a session another connection owns reads as unknown. */
function workspaceOf(core: Core, sessionId: string | undefined): string {
  return sessionId ? core.sessions.get(sessionId).record.workspace : core.workspace
}

function workspaceNetworkView(workspace: string, read: WorkspaceNetworkRead): WorkspaceNetworkView {
  const { allowedPorts, allowlist, denylist } = read.value
  return { workspace, file: read.file, allowedPorts, allowlist, denylist, problem: read.problem }
}
