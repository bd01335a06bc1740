import { contract, type ShellgateContract } from '../../shared/ipc/contract'
import type { Core } from '../core/app'
import { createDispatcher, type Dispatcher } from './dispatcher'
import { mapDomainError } from './domain-errors'
import { createEventHub, type EventHub } from './event-hub'
import { createHandlers } from './handlers'
import type { HubControl } from './handlers/hub-handlers'
import { createSessionOwnership, type SessionOwnership } from './session-ownership'

/** What every transport adapts: one dispatcher for requests, one hub for events. */
export interface IpcHost {
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
  core: Core
  ownership: SessionOwnership
  /** Set once this process serves the hub endpoint; until then `hub.*` methods are refused. */
  setHubControl(control: HubControl | null): void
}

/** The hub exists before the core so the core can emit from its first moment. */
export async function createIpcHost(
  makeCore: (hub: EventHub<ShellgateContract>) => Promise<Core>,
): Promise<IpcHost> {
  const ownership = createSessionOwnership()
  const hub = createEventHub(contract, { agentView: ownership.agentView })
  const core = await makeCore(hub)
  let control: HubControl | null = null
  return {
    dispatcher: createDispatcher(contract, createHandlers(core, { ownership, hubControl: () => control }), {
      mapError: mapDomainError,
    }),
    hub,
    core,
    ownership,
    setHubControl(next) {
      control = next
    },
  }
}
