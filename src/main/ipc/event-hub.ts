import type { ContractShape, EventName, EventPayload } from '../../shared/ipc/define'
import type { EventEnvelope } from '../../shared/ipc/envelope'

export interface EventHub<C extends ContractShape> {
  emit<E extends EventName<C>>(name: E, payload: EventPayload<C, E>): void
  /** Each connection subscribes once and unsubscribes when it closes. */
  subscribe(listener: (event: EventEnvelope) => void): () => void
}

/** Payloads are validated on the way out so a bug in main never hands a UI a malformed event. */
export function createEventHub<C extends ContractShape>(contract: C): EventHub<C> {
  const listeners = new Set<(event: EventEnvelope) => void>()
  return {
    emit(name, payload) {
      const spec = contract.events[name]
      if (!spec) throw new Error(`unknown event "${name}"`)
      const parsed = spec.payload.parse(payload)
      const envelope: EventEnvelope = { kind: 'event', name, payload: parsed }
      for (const listener of [...listeners]) listener(envelope)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
