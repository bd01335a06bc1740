import type { SessionService } from '../core/workbench/session-service'
import type { RequestContext } from './dispatcher'

/**
 * Which agent sessions have an MCP connection open now: a session is present while a connection
 * that created or joined it has not gone away (its request signal aborts when it does); when the
 * last one goes, the conversation ends and the desk folds it away.
 */
export interface AgentPresence {
  join(sessionId: string, context: Pick<RequestContext, 'signal'>): void
  isConnected(sessionId: string): boolean
}

export function createAgentPresence(sessions: SessionService): AgentPresence {
  return {
    join(sessionId, context) {
      sessions.attach(sessionId, context.signal)
    },
    isConnected: (sessionId) => sessions.isAttached(sessionId),
  }
}
