import { z } from 'zod'
import { SandboxModeSchema, SandboxNetworkSchema } from '../../settings'

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
