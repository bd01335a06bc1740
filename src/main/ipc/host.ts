import { contract, type ShellgateContract } from '../../shared/ipc/contract'
import type { Core } from '../core/app'
import { createDispatcher, type Dispatcher } from './dispatcher'
import { mapDomainError } from './domain-errors'
import { createEventHub, type EventHub } from './event-hub'
import { createHandlers } from './handlers'

/** What every transport adapts: one dispatcher for requests, one hub for events. */
export interface IpcHost {
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
  core: Core
}

/** The hub exists before the core so the core can emit from its first moment. */
export async function createIpcHost(
  makeCore: (hub: EventHub<ShellgateContract>) => Promise<Core>,
): Promise<IpcHost> {
  const hub = createEventHub(contract)
  const core = await makeCore(hub)
  return {
    dispatcher: createDispatcher(contract, createHandlers(core), { mapError: mapDomainError }),
    hub,
    core,
  }
}
