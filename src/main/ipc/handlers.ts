import type { ShellgateContract } from '../../shared/ipc/contract'
import type { Core } from '../core/app'
import type { Handlers } from './dispatcher'

/** Maps each contract request to the core service that answers it; no logic lives here. */
export function createHandlers(core: Core): Handlers<ShellgateContract> {
  return {
    'app.about': (_input, context) => core.about(context.transport),
  }
}
