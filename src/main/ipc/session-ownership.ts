import type { EventEnvelope } from '../../shared/ipc/envelope'
import { RpcError } from '../../shared/ipc/errors'
import type { CallChannel } from '../../shared/ipc/domains/sessions'
import type { RequestContext } from './dispatcher'

/**
 * Which agent connections created or joined which session (one agent run's MCP server and the
 * `shellgate exec` it runs share one), and by which channel each calls. Kept in memory only: an
 * agent's connection id is random per connection, so after a restart (or a reconnect) no agent
 * owns anything until it joins again, and the person still sees every session.
 */
export interface SessionOwnership {
  claim(sessionId: string, connectionId: string, channel?: CallChannel): void
  /** This connection leaves the session; true when no agent connection holds it any more. */
  release(sessionId: string, connectionId: string): boolean
  forget(sessionId: string): void
  /** The sessions this connection created or joined. */
  sessionsOf(connectionId: string): string[]
  /** How this connection's calls arrive in the session (mcp unless it said otherwise). */
  channelOf(sessionId: string, connectionId: string): CallChannel
  /** The person may touch any session; an agent only the ones its connection created. */
  mayAccess(context: Pick<RequestContext, 'role' | 'connectionId'>, sessionId: string): boolean
  /** Throws `denied` with the same words whether the session is someone else's or does not exist. */
  require(context: Pick<RequestContext, 'role' | 'connectionId'>, sessionId: string, method: string): void
  /** The agent's view of an event: only its own sessions' calls, tasks and approvals; never settings. */
  agentView(event: EventEnvelope, connectionId: string): EventEnvelope | null
}

/** Events an agent may receive about its own sessions; everything else never reaches it. */
const AGENT_SESSION_EVENTS = new Set([
  'bash.call',
  'bash.progress',
  'tasks.updated',
  'tasks.output',
  'approvals.requested',
  'approvals.resolved',
])

export function createSessionOwnership(): SessionOwnership {
  const owners = new Map<string, Map<string, CallChannel>>()
  const owns = (connectionId: string, sessionId: unknown) =>
    typeof sessionId === 'string' && owners.get(sessionId)?.has(connectionId) === true

  return {
    claim(sessionId, connectionId, channel = 'mcp') {
      const holders = owners.get(sessionId) ?? new Map<string, CallChannel>()
      holders.set(connectionId, channel)
      owners.set(sessionId, holders)
    },
    release(sessionId, connectionId) {
      const holders = owners.get(sessionId)
      holders?.delete(connectionId)
      if (holders?.size) return false
      owners.delete(sessionId)
      return true
    },
    forget(sessionId) {
      owners.delete(sessionId)
    },
    sessionsOf(connectionId) {
      return [...owners].filter(([, holders]) => holders.has(connectionId)).map(([sessionId]) => sessionId)
    },
    channelOf(sessionId, connectionId) {
      return owners.get(sessionId)?.get(connectionId) ?? 'mcp'
    },
    mayAccess(context, sessionId) {
      return context.role === 'ui' || owns(context.connectionId, sessionId)
    },
    require(context, sessionId, method) {
      if (this.mayAccess(context, sessionId)) return
      throw new RpcError('denied', `${method}: session "${sessionId}" is not one this connection created`)
    },
    agentView(event, connectionId) {
      if (event.name === 'sessions.changed') {
        const { sessions } = event.payload as { sessions: Array<{ id: string }> }
        return { ...event, payload: { sessions: sessions.filter((s) => owns(connectionId, s.id)) } }
      }
      if (!AGENT_SESSION_EVENTS.has(event.name)) return null
      const { sessionId } = event.payload as { sessionId?: unknown }
      return owns(connectionId, sessionId) ? event : null
    },
  }
}
