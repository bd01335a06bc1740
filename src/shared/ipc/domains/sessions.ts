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

/** `sessions.create`; an agent names its workspace (absolute, an existing directory) and itself. */
export const SessionCreateInputSchema = z
  .object({
    title: z.string().max(200).optional(),
    workspace: z.string().min(1).max(4_096).optional(),
    agent: z
      .object({ name: z.string().min(1).max(200), version: z.string().max(100).optional() })
      .strict()
      .optional(),
  })
  .strict()

export const SessionSchema = z.object({
  id: SessionIdSchema,
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
})
export type Session = z.infer<typeof SessionSchema>
