import { z } from 'zod'

export const SessionIdSchema = z.string().min(1).max(128)

/** How the session's shell came back after a restart (seed 003: the shell is fixed per session). */
export const ShellRestoreSchema = z.enum(['new', 'restored', 'fallback', 'stale'])

/** The agent program that created a session (its MCP clientInfo); null for the person's own sessions. */
export const SessionAgentSchema = z.object({
  name: z.string().min(1).max(200),
  version: z.string().max(100).nullable(),
})
export type SessionAgent = z.infer<typeof SessionAgentSchema>

/**
 * How a call reached Shellgate: the person's command box, an agent's MCP `bash` tool, an agent's
 * hook on its own shell tool, or `shellgate exec`.
 */
export const CallChannelSchema = z.enum(['person', 'mcp', 'hook', 'exec'])
export type CallChannel = z.infer<typeof CallChannelSchema>

/**
 * The agent run a connection belongs to, so its MCP server, its hooks and the `shellgate exec` it
 * runs share one conversation. Self-reported: it groups calls, it grants nothing over other agents.
 */
export const AgentRunSchema = z
  .object({
    /** The agent's own id for this run (Claude Code's session_id, Codex's thread id, Gemini's session_id). */
    agentSessionId: z.string().min(1).max(200).optional(),
    /** The calling process (the MCP server, the hook, exec): the hub finds the agent among its ancestors. */
    pid: z.number().int().positive().optional(),
  })
  .strict()
export type AgentRun = z.infer<typeof AgentRunSchema>

/** `sessions.create`; an agent names its workspace (absolute, an existing directory) and itself. */
export const SessionCreateInputSchema = z
  .object({
    title: z.string().max(200).optional(),
    workspace: z.string().min(1).max(4_096).optional(),
    agent: z
      .object({ name: z.string().min(1).max(200), version: z.string().max(100).optional() })
      .strict()
      .optional(),
    /** When given and a conversation of the same run is open, that one is joined instead of a new one made. */
    run: AgentRunSchema.optional(),
    /** How this caller's calls arrive (default: mcp for an agent, person for the UI). */
    channel: CallChannelSchema.optional(),
  })
  .strict()

/**
 * One conversation: the person's own command box, or one agent run (its MCP connection, its hook
 * calls and the `shellgate exec` it runs), with every call in its history.
 */
export const SessionSchema = z.object({
  id: SessionIdSchema,
  /** Unique among open conversations: agent and full version, workspace folder, start time. */
  title: z.string(),
  workspace: z.string(),
  agent: SessionAgentSchema.nullable(),
  createdAt: z.string(),
  shell: z.object({
    path: z.string().nullable(),
    name: z.string(),
    restore: ShellRestoreSchema,
    /** A line the agent is told once, e.g. "The Bash tool shell is Git Bash." */
    reminder: z.string().nullable(),
  }),
  /** person: the desk's own command box; agent: one agent run. */
  origin: z.enum(['person', 'agent']),
  /** The channels its calls arrived by so far, in first-use order. */
  channels: z.array(CallChannelSchema),
  /** The agent's own id for this run when it gave one (Claude Code's session_id…). */
  agentSessionId: z.string().nullable(),
  /** Its last call or connection; null before the first. */
  lastSeenAt: z.string().nullable(),
  /**
   * When the agent run ended (the desk folds it away): its MCP connection closed, its agent process
   * exited, no hook call came for 30 minutes (a hook-only run whose process is unknown), or the agent
   * closed it. Null while it may still call, and always for the person's own; a new call of the same
   * run opens it again.
   */
  endedAt: z.string().nullable(),
})
export type Session = z.infer<typeof SessionSchema>

/** A conversation the folder screen lists before the person chose a folder: agents never wait on that choice. */
export const WaitingAgentSchema = z.object({
  sessionId: SessionIdSchema,
  title: z.string(),
  workspace: z.string(),
  agent: SessionAgentSchema,
  /** Its approvals waiting for the person now. */
  pendingApprovals: z.number().int().nonnegative(),
  lastSeenAt: z.string().nullable(),
})
export type WaitingAgent = z.infer<typeof WaitingAgentSchema>
