import { contract, type ShellgateContract } from '../../shared/ipc/contract'
import type { Core } from '../core/app'
import { createDispatcher, type Dispatcher } from './dispatcher'
import { createEventHub, type EventHub } from './event-hub'
import { createHandlers } from './handlers'

/** What every transport adapts: one dispatcher for requests, one hub for events. */
export interface IpcHost {
  dispatcher: Dispatcher
  hub: EventHub<ShellgateContract>
}

/** The hub exists before the core so the core can emit from its first moment. */
export function createIpcHost(
  makeCore: (hub: EventHub<ShellgateContract>) => Core,
): IpcHost & { core: Core } {
  const hub = createEventHub(contract)
  const core = makeCore(hub)
  return { dispatcher: createDispatcher(contract, createHandlers(core)), hub, core }
}
