import { z } from 'zod'

/** build: read-only runs, the rest asks. plan: read-only runs, the rest is denied. yolo: everything runs. */
export const PermissionModeSchema = z.enum(['build', 'plan', 'yolo'])
export type PermissionMode = z.infer<typeof PermissionModeSchema>

/** A Bash rule as the user writes it: an exact command, `prefix:*` (word boundary) or a `*` wildcard. */
export const BashRuleSchema = z.string().trim().min(1, 'a rule cannot be empty').max(2_000)

/** Every decision scans every rule: a file (maybe a repository's own) with 40 000 of them cost 1.5 s each. */
export const MAX_RULES_PER_LIST = 1_000

const RuleListSchema = z
  .array(BashRuleSchema)
  .max(MAX_RULES_PER_LIST, `at most ${MAX_RULES_PER_LIST} rules per list`)
  .default([])

export const PermissionRulesSchema = z.object({
  allow: RuleListSchema,
  ask: RuleListSchema,
  deny: RuleListSchema,
})
export type PermissionRules = z.infer<typeof PermissionRulesSchema>

/** auto picks per platform; bash/zsh on macOS and Linux; git-bash/cmd on Windows. */
export const ShellKindSchema = z.enum(['auto', 'bash', 'zsh', 'git-bash', 'cmd'])
export type ShellKind = z.infer<typeof ShellKindSchema>

export const ShellSettingsSchema = z.object({
  kind: ShellKindSchema.default('auto'),
  /** An explicit executable; empty means "find it". */
  path: z.string().max(4_096).optional(),
})

export const NetworkSettingsSchema = z.object({
  httpProxy: z.string().max(2_048).optional(),
  noProxy: z.string().max(8_192).optional(),
  caCertFile: z.string().max(4_096).optional(),
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
})
export type NetworkSettings = z.infer<typeof NetworkSettingsSchema>

export const LimitsSettingsSchema = z.object({
  defaultTimeoutMs: z.number().int().positive().max(600_000).default(120_000),
  maxTimeoutMs: z.number().int().positive().max(3_600_000).default(600_000),
  maxOutputLength: z.number().int().positive().max(150_000).default(30_000),
})

export const ApprovalSettingsSchema = z.object({
  /** 0 means a pending approval waits until someone answers or its session closes. */
  timeoutMs: z.number().int().min(0).max(86_400_000).default(0),
})

/** Where read-only commands may read without asking (issue 13, class 6). */
export const ReadPlacesSettingsSchema = z.object({
  /** ask: a read-only command whose paths leave the workspace asks first; allow: it runs. */
  readsOutsideWorkspace: z.enum(['ask', 'allow']).default('ask'),
  /** Folders outside the workspace that read-only commands may read without asking. */
  readableFolders: z.array(z.string().min(1).max(4_096)).max(100).default([]),
})
export type ReadPlacesSettings = z.infer<typeof ReadPlacesSettingsSchema>

/** SHELLGATE_HOME/settings.json */
export const UserSettingsSchema = z.object({
  shell: ShellSettingsSchema.default({ kind: 'auto' }),
  permissions: z
    .object({ mode: PermissionModeSchema.default('build') })
    .extend(PermissionRulesSchema.shape)
    .default({ mode: 'build', allow: [], ask: [], deny: [] }),
  network: NetworkSettingsSchema.default({}),
  limits: LimitsSettingsSchema.default({
    defaultTimeoutMs: 120_000,
    maxTimeoutMs: 600_000,
    maxOutputLength: 30_000,
  }),
  approvals: ApprovalSettingsSchema.default({ timeoutMs: 0 }),
  readPlaces: ReadPlacesSettingsSchema.default({ readsOutsideWorkspace: 'ask', readableFolders: [] }),
})
export type UserSettings = z.infer<typeof UserSettingsSchema>

/** <workspace>/.shellgate/settings.json: rules only, because a repository's own files may be hostile. */
export const WorkspaceSettingsSchema = z.object({
  permissions: PermissionRulesSchema.default({ allow: [], ask: [], deny: [] }),
})
export type WorkspaceSettings = z.infer<typeof WorkspaceSettingsSchema>

export function defaultUserSettings(): UserSettings {
  return UserSettingsSchema.parse({})
}
