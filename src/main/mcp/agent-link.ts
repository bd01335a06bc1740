import type { TypedClient } from '../../shared/ipc/client'
import type { ShellgateContract } from '../../shared/ipc/contract'

/** What every tool needs: the hub (as an agent), this connection's session, and the client's clock. */
export interface AgentLink {
  client: TypedClient<ShellgateContract>
  /** This MCP connection's session on the hub, created on first use. */
  session(): Promise<string>
  /** Every tool call answers within this (SHELLGATE_MCP_DEADLINE_MS, default 45 s). */
  deadlineMs: number
}
