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

export const AgentsReportSchema = z.object({
  agents: z.array(AgentViewSchema),
  setups: z.array(AgentSetupSchema),
})
