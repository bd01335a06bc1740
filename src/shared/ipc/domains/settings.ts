import { z } from 'zod'
import { UserSettingsSchema, WorkspaceSettingsSchema } from '../../settings'
import { RuleScopeSchema } from './approvals'

export const SettingsWarningSchema = z.object({
  file: z.string(),
  message: z.string(),
  backup: z.string().nullable(),
})

export const ScopedRuleSchema = z.object({
  list: z.enum(['allow', 'ask', 'deny']),
  rule: z.string(),
  scope: RuleScopeSchema,
  source: z.string(),
  /** false for a workspace allow rule the user has not accepted yet: it is ignored until trusted. */
  trusted: z.boolean(),
  /** For an allow rule that allows far more than one command (`*`, `rm:*`): what it allows, in words. */
  broad: z.string().nullable().optional(),
})

/**
 * Whether the workspace file's allow rules are exactly the list the person accepted, and if not,
 * what differs: `added` are in the file but not accepted (new or edited), `removed` were accepted
 * and are gone from the file (deleted, or the old form of an edited rule).
 */
export const WorkspaceTrustViewSchema = z.object({
  trusted: z.boolean(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** When the person last accepted this workspace's rules; null if never. */
  trustedAt: z.string().nullable(),
})
export type WorkspaceTrustView = z.infer<typeof WorkspaceTrustViewSchema>

export const SettingsSnapshotSchema = z.object({
  user: UserSettingsSchema,
  workspace: WorkspaceSettingsSchema,
  rules: z.array(ScopedRuleSchema),
  warnings: z.array(SettingsWarningSchema),
  /** local: this workspace's rules kept on this machine. */
  files: z.object({ user: z.string(), workspace: z.string(), local: z.string().optional() }),
  /** Absent only from hubs older than content-hash trust. */
  trust: WorkspaceTrustViewSchema.optional(),
})
export type SettingsSnapshot = z.infer<typeof SettingsSnapshotSchema>

export const RuleChangeSchema = z
  .object({
    list: z.enum(['allow', 'ask', 'deny']),
    rule: z.string().trim().min(1, 'a rule cannot be empty').max(2_000),
    scope: RuleScopeSchema,
    sessionId: z.string().optional(),
    /** Required to add a broad allow rule (`*`, `rm:*`, …): the person saw what it allows. */
    confirmBroad: z.boolean().optional(),
  })
  .strict()
