import { z } from 'zod'

export const SessionIdSchema = z.string().min(1).max(128)

/** How the session's shell came back after a restart (seed 003: the shell is fixed per session). */
export const ShellRestoreSchema = z.enum(['new', 'restored', 'fallback', 'stale'])

export const SessionSchema = z.object({
  id: SessionIdSchema,
  title: z.string(),
  workspace: z.string(),
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
