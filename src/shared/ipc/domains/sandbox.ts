import { z } from 'zod'
import { SandboxModeSchema, SandboxNetworkSchema } from '../../settings'
import { SessionIdSchema } from './sessions'

export const SandboxProfileSchema = z.enum(['read-only', 'workspace-write', 'off'])

/** What the approval card says about the sandbox a command will run in. */
export const ApprovalSandboxSchema = z.object({
  /** agent-shell: a hook whose client cannot hand the command over; the agent runs it itself (issue 20). */
  profile: SandboxProfileSchema.or(z.literal('agent-shell')),
  /** A warning to show with it, e.g. "no sandbox can run here"; null when there is none. */
  note: z.string().nullable(),
  /** Whether the card may offer "run unsandboxed, this once" (never in strict mode). */
  unsandboxedAllowed: z.boolean(),
})

const ProfileProbeSchema = z.object({ ok: z.boolean(), error: z.string().nullable() })

/** Settings → Sandbox and `shellgate sandbox status --json`. */
export const SandboxStatusSchema = z.object({
  mode: SandboxModeSchema,
  network: SandboxNetworkSchema,
  backend: z.object({
    platform: z.string(),
    backend: z.enum(['bubblewrap', 'seatbelt', 'none']),
    path: z.string().nullable(),
    available: z.boolean(),
    profiles: z.object({ 'read-only': ProfileProbeSchema, 'workspace-write': ProfileProbeSchema }),
    message: z.string(),
  }),
  problems: z.array(
    z.object({ code: z.string(), field: z.string(), entry: z.string(), message: z.string() }),
  ),
  summary: z.string(),
})
export type SandboxStatusView = z.infer<typeof SandboxStatusSchema>

/** One workspace's sandbox network, kept on this machine (Settings → Sandbox, this workspace). */
export const WorkspaceNetworkSchema = z.object({
  workspace: z.string(),
  /** SHELLGATE_HOME/workspaces/<hash>.network.json */
  file: z.string(),
  /** Host loopback ports this workspace's commands may reach (never Shellgate's own). */
  allowedPorts: z.array(z.number().int()),
  allowlist: z.array(z.string()),
  denylist: z.array(z.string()),
  /** The file is unusable (it then allows nothing), or null. */
  problem: z.string().nullable(),
})
export type WorkspaceNetworkView = z.infer<typeof WorkspaceNetworkSchema>

/** Which workspace: the session's, or the window's own when no session is named. */
export const WorkspaceNetworkRefSchema = z.object({ sessionId: SessionIdSchema.optional() }).strict()

export const SetWorkspaceNetworkSchema = z
  .object({
    sessionId: SessionIdSchema.optional(),
    allowedPorts: z.array(z.number()).max(64),
    allowlist: z.array(z.string().max(253)).max(500),
    denylist: z.array(z.string().max(253)).max(500),
  })
  .strict()
