import { z } from 'zod'
import { PermissionModeSchema } from '../../settings'
import { ApprovalSandboxSchema } from './sandbox'
import { SessionIdSchema } from './sessions'

/** local: this workspace, kept on this machine (the default); workspace: shared in the repository's own file. */
export const RuleScopeSchema = z.enum(['session', 'local', 'workspace', 'user'])

export const PendingApprovalSchema = z.object({
  id: z.string(),
  sessionId: SessionIdSchema,
  /** The Bash call waiting on it (its card in the session's history shows this approval inline). */
  callId: z.string().optional(),
  command: z.string(),
  cwd: z.string(),
  shell: z.string(),
  description: z.string().optional(),
  mode: PermissionModeSchema,
  why: z.object({
    reason: z.string(),
    nonReadOnly: z.array(z.object({ text: z.string(), reason: z.string() })),
    nearMiss: z.object({ rule: z.string(), explanation: z.string() }).nullable(),
    suggestedRules: z.array(z.string()),
  }),
  requestedAt: z.string(),
  expiresAt: z.string().nullable(),
  /** The sandbox profile the command will run in once allowed (issue 12). */
  sandbox: ApprovalSandboxSchema.optional(),
  /**
   * Present on a network approval (issue 19.3): the running command wants this destination. The
   * answers allow or refuse the connection; an always-allow rule is a domain pattern, saved for
   * this session, this workspace on this machine, or all workspaces (never the repository's file).
   */
  network: z.object({ host: z.string(), port: z.number().int(), method: z.string() }).optional(),
})
export type PendingApproval = z.infer<typeof PendingApprovalSchema>

export const ApprovalAnswerSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('allow_once'),
      /** The person lets this one command run outside the sandbox; audited as such. */
      unsandboxed: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('always_allow'),
      rule: z.string().trim().min(1).max(2_000),
      scope: RuleScopeSchema,
    })
    .strict(),
  z.object({ kind: z.literal('deny'), message: z.string().max(4_000).optional() }).strict(),
])

export const ApprovalResolvedSchema = z.object({
  id: z.string(),
  sessionId: SessionIdSchema,
  behavior: z.enum(['allow', 'deny']),
  decidedBy: z.string(),
})
