import type { HandlerDeps } from '../../../src/main/ipc/handlers'
import { createSessionOwnership } from '../../../src/main/ipc/session-ownership'

/** What a UI-only host passes its handlers: fresh ownership, and no hub control (not a hub). */
export const testHandlerDeps = (): HandlerDeps => ({
  ownership: createSessionOwnership(),
  hubControl: () => null,
})
