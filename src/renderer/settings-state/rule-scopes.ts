import type { z } from 'zod'
import type { RuleScopeSchema } from '../../shared/ipc/domains/approvals'

export type RuleScope = z.infer<typeof RuleScopeSchema>

/** "This workspace" is kept on this machine (the default); sharing with the repository is its own, explicit choice. */
export const RULE_SCOPES: ReadonlyArray<{ scope: RuleScope; label: string; hint?: string }> = [
  { scope: 'local', label: 'This workspace', hint: 'kept on this machine, not in the repository' },
  { scope: 'session', label: 'This session' },
  { scope: 'user', label: 'All workspaces (user)' },
  {
    scope: 'workspace',
    label: 'Share with the repository',
    hint: 'writes .shellgate/settings.json in the workspace: it will show up in git status',
  },
]

/** Short names for tables and selects. */
export const SCOPE_NAMES: Record<RuleScope, string> = {
  session: 'this session',
  local: 'this workspace (this machine)',
  workspace: 'shared with the repository',
  user: 'all workspaces',
}
