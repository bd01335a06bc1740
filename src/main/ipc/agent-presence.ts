import type { RequestContext } from './dispatcher'

/**
 * Which agent sessions have their MCP connection open now: a session is present while the
 * connection that created it has not gone away (its request signal aborts when it does).
 */
export interface AgentPresence {
  join(sessionId: string, context: Pick<RequestContext, 'signal'>): void
  isConnected(sessionId: string): boolean
}

export function createAgentPresence(): AgentPresence {
  const signals = new Map<string, AbortSignal>()
  return {
    join(sessionId, context) {
      signals.set(sessionId, context.signal)
      context.signal.addEventListener('abort', () => signals.delete(sessionId), { once: true })
    },
    isConnected(sessionId) {
      const signal = signals.get(sessionId)
      return signal !== undefined && !signal.aborted
    },
  }
}
