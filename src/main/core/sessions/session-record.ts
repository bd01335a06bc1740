import { z } from 'zod'

/** Ids become file names: nothing that could climb out of the sessions directory. */
export const SessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id uses letters, digits, - and _ only')

export const ShellSelectionSchema = z.object({
  dialect: z.enum(['bash', 'zsh', 'git-bash', 'cmd', 'sh']),
  path: z.string().min(1),
  source: z.enum(['setting', 'env-shell', 'search', 'auto-git-bash', 'system']),
  reason: z.string(),
  envOverlay: z.record(z.string(), z.string()),
})

/** SHELLGATE_HOME/sessions/<id>.json */
export const SessionRecordSchema = z.object({
  version: z.literal(1),
  id: SessionIdSchema,
  createdAt: z.string(),
  workspace: z.string(),
  /** What the UI calls it; absent in records written before titles existed. */
  title: z.string().max(200).optional(),
  /** The agent that created it (MCP clientInfo); absent for the person's own sessions. */
  agent: z.object({ name: z.string(), version: z.string().nullable() }).optional(),
  /**
   * Fixed when the session is created (seed 003): a changed shell setting applies to new sessions
   * only, and a restarted app keeps running this session's commands in the same shell.
   */
  shell: ShellSelectionSchema,
  /** Lines for the model about its shell, e.g. "The Bash tool shell is Git Bash.", oldest first. */
  reminders: z.array(z.string()),
  /**
   * The agent run this conversation is (issue 22.4): the agent's own session id and its process,
   * so its MCP server, hooks and `shellgate exec` calls find it again, after a restart too.
   */
  run: z
    .object({
      agentSessionId: z.string().max(200).optional(),
      process: z.object({ pid: z.number().int().positive(), startTime: z.string().max(100) }).optional(),
    })
    .optional(),
  /** How its calls arrived so far (mcp, hook, exec, person), first use first. */
  channels: z.array(z.enum(['person', 'mcp', 'hook', 'exec'])).optional(),
  /** When the agent run ended; absent while it may still call. */
  endedAt: z.string().optional(),
})
export type SessionRecord = z.infer<typeof SessionRecordSchema>
