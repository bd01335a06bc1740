import { z } from 'zod'
import { RuleScopeSchema } from './approvals'

/**
 * A rule the desk offers after the person allowed the same command shape RULE_OFFER_AFTER_ALLOWS
 * times in one workspace and never denied it: the person edits it, picks the scope and saves, or
 * dismisses it (then it is not offered again).
 */
export const RuleOfferSchema = z.object({
  id: z.string(),
  /** The allow rule the existing suggestion code gives for those commands (`npm test:*`). */
  rule: z.string(),
  /** The scope it would be saved in unless the person picks another: local = this workspace, on this machine. */
  scope: RuleScopeSchema,
  /** The workspace whose cards taught it (the rule's local/workspace file belongs to it). */
  workspace: z.string(),
  /** How many times the person allowed a command of this shape there. */
  allowedCount: z.number().int().positive(),
  /** The commands allowed, newest first (at most 5): what the rule would have answered. */
  examples: z.array(z.string()),
  lastAllowedAt: z.string(),
})
export type RuleOffer = z.infer<typeof RuleOfferSchema>

/** `rules.acceptOffer`: the offer, saved as the person edited it. */
export const RuleOfferAcceptSchema = z
  .object({
    id: z.string().min(1).max(128),
    rule: z.string().trim().min(1, 'a rule cannot be empty').max(2_000),
    scope: RuleScopeSchema,
  })
  .strict()

/** A decision that outlives the agent run that asked: the task promised at the 45 s deadline. */
export const KeptDecisionSchema = z.object({
  taskId: z.string(),
  /** The conversation that asked; a later one of the same agent in the same workspace may read it. */
  sessionId: z.string(),
  agent: z.string(),
  workspace: z.string(),
  command: z.string(),
  /** waiting: for the person; started: allowed, runs or ran as task taskId; denied: see message; withdrawn: it never ran. */
  state: z.enum(['waiting', 'started', 'denied', 'withdrawn']),
  /** The person's message when denied, else null. */
  message: z.string().nullable(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
})
export type KeptDecision = z.infer<typeof KeptDecisionSchema>
