import type { ClientTransport } from '../../shared/ipc/client'
import type { ContractShape, Role } from '../../shared/ipc/define'
import type { EventEnvelope } from '../../shared/ipc/envelope'
import type { Dispatcher } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'

export interface LoopbackConnection {
  transport: ClientTransport
  /** Simulates the client going away: in-flight requests see their signal abort. */
  disconnect(): void
}

let connectionCounter = 0

/**
 * In-memory transport for unit tests. Envelopes go through a JSON round trip so a test sees
 * exactly what would cross a real wire.
 */
export function connectLoopback<C extends ContractShape>(
  dispatcher: Dispatcher,
  hub: EventHub<C>,
  role: Role = 'ui',
): LoopbackConnection {
  const controller = new AbortController()
  const connectionId = `loopback-${++connectionCounter}`
  const listeners = new Set<(event: EventEnvelope) => void>()
  const unsubscribe = hub.subscribe(
    (event) => {
      const copy = JSON.parse(JSON.stringify(event)) as EventEnvelope
      for (const listener of listeners) listener(copy)
    },
    { role, connectionId },
  )

  return {
    transport: {
      async request(envelope) {
        const wire = JSON.parse(JSON.stringify(envelope)) as unknown
        const response = await dispatcher.dispatch(wire, {
          connectionId,
          role,
          transport: 'loopback',
          signal: controller.signal,
        })
        return JSON.parse(JSON.stringify(response))
      },
      onEvent(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    },
    disconnect() {
      unsubscribe()
      listeners.clear()
      controller.abort()
    },
  }
}
