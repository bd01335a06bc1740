import { z } from 'zod'
import { PermissionModeSchema } from '../../settings'
import { ApprovalSandboxSchema } from './sandbox'
import { SessionIdSchema } from './sessions'

/** local: this workspace, kept on this machine (the default); workspace: shared in the repository's own file. */
export const RuleScopeSchema = z.enum(['session', 'local', 'workspace', 'user'])

/** What allowing a terminal run means: the agent types into it until it ends; which shell or interpreter it is. */
export const ApprovalTerminalSchema = z.object({
  /** A shell or interpreter the command starts (`python3`, `bash`, `ssh`): what the agent types there runs as code. */
  interpreter: z.string().nullable(),
  note: z.string(),
})

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
  /** It runs on a terminal the agent can type into for the task's life (issue 23.2). */
  terminal: ApprovalTerminalSchema.optional(),
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
