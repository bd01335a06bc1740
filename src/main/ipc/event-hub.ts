import type { ContractShape, EventName, EventPayload, Role } from '../../shared/ipc/define'
import type { EventEnvelope } from '../../shared/ipc/envelope'

/** Who a subscription delivers to; an agent's events are projected down to its own sessions. */
export interface EventAudience {
  role: Role
  connectionId: string
}

export interface EventHub<C extends ContractShape> {
  emit<E extends EventName<C>>(name: E, payload: EventPayload<C, E>): void
  /** Each connection subscribes once and unsubscribes when it closes; no audience means the person. */
  subscribe(listener: (event: EventEnvelope) => void, audience?: EventAudience): () => void
}

export interface EventHubOptions {
  /**
   * What an agent audience may see of an event: the event itself, a narrowed copy, or null.
   * Without it an agent receives nothing (fail closed).
   */
  agentView?: (event: EventEnvelope, connectionId: string) => EventEnvelope | null
}

/** Payloads are validated on the way out so a bug in main never hands a UI a malformed event. */
export function createEventHub<C extends ContractShape>(
  contract: C,
  options: EventHubOptions = {},
): EventHub<C> {
  const listeners = new Set<(event: EventEnvelope) => void>()
  return {
    emit(name, payload) {
      const spec = contract.events[name]
      if (!spec) throw new Error(`unknown event "${name}"`)
      const parsed = spec.payload.parse(payload)
      const envelope: EventEnvelope = { kind: 'event', name, payload: parsed }
      for (const listener of [...listeners]) listener(envelope)
    },
    subscribe(listener, audience) {
      const deliver =
        !audience || audience.role === 'ui'
          ? listener
          : (event: EventEnvelope) => {
              const view = options.agentView?.(event, audience.connectionId) ?? null
              if (view) listener(view)
            }
      listeners.add(deliver)
      return () => listeners.delete(deliver)
    },
  }
}
