import { z } from 'zod'
import { SessionAgentSchema, SessionIdSchema } from './sessions'

/** One agent session as Settings → Agents shows it: who, where, connected now, and what it runs. */
export const AgentViewSchema = z.object({
  sessionId: SessionIdSchema,
  title: z.string(),
  agent: SessionAgentSchema,
  workspace: z.string(),
  /** Its MCP connection is open now (hook sessions connect only while they ask). */
  connected: z.boolean(),
  /** Calls running or waiting for approval. */
  calls: z.array(
    z.object({ callId: z.string(), command: z.string(), status: z.string(), startedAt: z.string() }),
  ),
  /** Background tasks still running. */
  tasks: z.array(z.object({ taskId: z.string(), command: z.string(), startedAt: z.string() })),
})
export type AgentView = z.infer<typeof AgentViewSchema>

/** How to connect one client: the command, the files and what to put in each, and why. */
export const AgentSetupSchema = z.object({
  client: z.string(),
  title: z.string(),
  command: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), text: z.string() })),
  notes: z.array(z.string()),
})
export type AgentSetup = z.infer<typeof AgentSetupSchema>

/** One check of a client's setup: true it holds, false it does not, null it cannot be known here; `detail` says which and why. */
export const SetupCheckSchema = z.object({ ok: z.boolean().nullable(), detail: z.string() })
export type SetupCheck = z.infer<typeof SetupCheckSchema>

/** One config file of a client as Shellgate reads it. */
export const SetupFileSchema = z.object({
  path: z.string(),
  /** mcp: declares the MCP server; hook: the pre-tool hook; permission: the rule that skips the client's own prompt. */
  role: z.enum(['mcp', 'hook', 'permission']),
  /** configured: Shellgate's entry is there; missing: the file or the entry is absent; unreadable: it does not parse. */
  state: z.enum(['configured', 'missing', 'unreadable']),
  /** The command the entry starts (`/usr/local/bin/shellgate mcp`), when it names one. */
  command: z.string().nullable(),
})

/**
 * Settings → Agents and `shellgate doctor`: per client, whether it is connected and how, each item
 * with why; what to do when one fails is in `fix`.
 */
export const AgentClientStatusSchema = z.object({
  client: z.string(),
  title: z.string(),
  /** Every Shellgate entry the client needs is in its files. */
  configured: z.boolean(),
  files: z.array(SetupFileSchema),
  /** The command those entries run starts Shellgate from any folder (`<command> --version` answered). */
  command: SetupCheckSchema,
  /** `<command> mcp`, started as the client would, answered initialize and listed its tools. */
  mcp: SetupCheckSchema,
  /** The pre-tool hook on the client's own shell tool is in its settings (null for a client without hooks). */
  hook: SetupCheckSchema,
  /** Codex only: the hook trusted in Codex's /hooks (null elsewhere, or when Codex keeps no record we can read). */
  trusted: SetupCheckSchema.nullable(),
  /** The client's last call that this Shellgate saw (any workspace), ISO; null when never. */
  lastSeenAt: z.string().nullable(),
  /** The one command that connects it (`shellgate connect <client> --write`), or null when nothing is missing. */
  fix: z.string().nullable(),
})
export type AgentClientStatus = z.infer<typeof AgentClientStatusSchema>

export const AgentsReportSchema = z.object({
  agents: z.array(AgentViewSchema),
  setups: z.array(AgentSetupSchema),
})
