import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { Core } from '../../core/app'
import type { Handlers } from '../dispatcher'
import { sessionHandlers } from './session-handlers'
import { settingsHandlers } from './settings-handlers'
import { systemHandlers } from './system-handlers'
import { workspaceHandlers } from './workspace-handlers'

/** Maps each contract request to the core service that answers it; no logic lives here. */
export function createHandlers(core: Core): Handlers<ShellgateContract> {
  return {
    ...systemHandlers(core),
    ...sessionHandlers(core),
    ...settingsHandlers(core),
    ...workspaceHandlers(core),
  }
}
