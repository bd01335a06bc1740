import { basename } from 'node:path'
import type { TypedClient } from '../../shared/ipc/client'
import type { ShellgateContract } from '../../shared/ipc/contract'
import type { McpClientFacts } from './sdk/stdio-server'

/** Claude Code answers roots/list at once; a client that never answers must not hold up the first call. */
const ROOTS_TIMEOUT_MS = 2_000

export interface AgentSessionOptions {
  client: TypedClient<ShellgateContract>
  /** The MCP client's clientInfo, once initialize arrived. */
  clientFacts: () => McpClientFacts | null
  listRoots: (timeoutMs: number) => Promise<string[]>
  /** --workspace, else the cwd `shellgate mcp` started in. */
  fallbackWorkspace: string
  /** --name: what the person sees instead of the client's own name. */
  label: string | null
  /** The environment the client started this server with (CLAUDE_CODE_SESSION_ID), default process.env. */
  env?: Readonly<Record<string, string | undefined>>
}

/**
 * The agent's own id for this run, where it gives its MCP server one: Claude Code sets
 * CLAUDE_CODE_SESSION_ID (the session_id its hooks get). Codex and Gemini CLI set none; their
 * calls are matched by the agent process instead.
 */
function agentSessionIdFrom(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const id = env.CLAUDE_CODE_SESSION_ID?.trim()
  return id && id.length <= 200 ? id : undefined
}

/** "claude-code 2.1.332" → "claude-code 2.1": the name a person recognises, without build noise. */
export function agentLabel(name: string, version: string | null): string {
  const short = version?.match(/^\d+(?:\.\d+)?/)?.[0]
  return short ? `${name} ${short}` : name
}

/**
 * One MCP connection is one agent run's conversation, created (or joined, when its hooks started
 * it) on the first tool call: by then the client has said who it is (clientInfo) and can say where
 * it works (roots; else --workspace, else the cwd).
 */
export function createAgentSession(options: AgentSessionOptions): { id(): Promise<string> } {
  let created: Promise<string> | null = null
  const create = async () => {
    const facts = options.clientFacts()
    const name = options.label ?? facts?.name ?? 'mcp-client'
    const version = options.label ? null : (facts?.version ?? null)
    const roots = facts?.supportsRoots ? await options.listRoots(ROOTS_TIMEOUT_MS) : []
    const workspace = roots[0] ?? options.fallbackWorkspace
    const label = agentLabel(name, version)
    const agentSessionId = agentSessionIdFrom(options.env ?? process.env)
    const session = await options.client.request('sessions.create', {
      title: `${label} · ${basename(workspace) || workspace}`.slice(0, 200),
      workspace,
      agent: { name: name.slice(0, 200), ...(version ? { version: version.slice(0, 100) } : {}) },
      // One conversation with this agent run's hook calls: the hub finds the agent as our parent.
      run: { pid: process.pid, ...(agentSessionId ? { agentSessionId } : {}) },
    })
    return session.id
  }
  return {
    id() {
      // A failed create is retried by the next call rather than remembered.
      created ??= create().catch((error: unknown) => {
        created = null
        throw error
      })
      return created
    },
  }
}
