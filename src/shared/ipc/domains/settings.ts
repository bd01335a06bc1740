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
})

export const SettingsSnapshotSchema = z.object({
  user: UserSettingsSchema,
  workspace: WorkspaceSettingsSchema,
  rules: z.array(ScopedRuleSchema),
  warnings: z.array(SettingsWarningSchema),
  files: z.object({ user: z.string(), workspace: z.string() }),
})
export type SettingsSnapshot = z.infer<typeof SettingsSnapshotSchema>

export const RuleChangeSchema = z
  .object({
    list: z.enum(['allow', 'ask', 'deny']),
    rule: z.string().trim().min(1, 'a rule cannot be empty').max(2_000),
    scope: RuleScopeSchema,
    sessionId: z.string().optional(),
  })
  .strict()
