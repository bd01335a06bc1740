import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import type { Handlers } from '../dispatcher'
import type { SessionOwnership } from '../session-ownership'
import { createAgentPresence } from '../agent-presence'
import { agentHandlers } from './agent-handlers'
import { hookHandlers } from './hook-handlers'
import { type HubControl, hubHandlers } from './hub-handlers'
import { sandboxHandlers } from './sandbox-handlers'
import { sessionHandlers } from './session-handlers'
import { settingsHandlers } from './settings-handlers'
import { systemHandlers } from './system-handlers'
import { terminalHandlers } from './terminal-handlers'
import { workspaceHandlers } from './workspace-handlers'

export interface HandlerDeps {
  ownership: SessionOwnership
  hubControl: () => HubControl | null
}

/** Maps each contract request to the core service that answers it; no logic lives here. */
export function createHandlers(core: Core, deps: HandlerDeps): Handlers<ShellgateContract> {
  const presence = createAgentPresence()
  return {
    ...systemHandlers(core),
    ...sessionHandlers(core, deps.ownership, presence),
    ...settingsHandlers(core),
    ...hubHandlers(deps.hubControl),
    ...sandboxHandlers(core, core.sandbox.home),
    ...workspaceHandlers(core),
    ...hookHandlers(core),
    ...agentHandlers(core, presence),
    ...terminalHandlers(core, deps.ownership),
  }
}
