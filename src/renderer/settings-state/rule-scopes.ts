import type { z } from 'zod'
import type { RuleScopeSchema } from '../../shared/ipc/domains/approvals'

export type RuleScope = z.infer<typeof RuleScopeSchema>

export const RULE_SCOPES: ReadonlyArray<{ scope: RuleScope; label: string }> = [
  { scope: 'session', label: 'This session' },
  { scope: 'workspace', label: 'This workspace' },
  { scope: 'user', label: 'All workspaces (user)' },
]
