import { createHash } from 'node:crypto'
import type { RuleOffer } from '../../../shared/ipc/domains/rules'
import type { RuleScope } from '../settings/scoped-rules'
import type { ApprovalBroker } from '../permissions/approval-broker'
import { broadRuleProblem } from '../permissions/broad-rules'
import type { SettingsStore } from '../settings/settings-store'
import {
  exampleOf,
  MAX_TRACKED_SHAPES,
  OFFER_EXAMPLES,
  OFFER_RULE_MAX_CHARS,
  openRuleOfferCounts,
  type Shape,
} from './rule-offer-counts'
import { WorkbenchError } from './workbench-error'

/**
 * Issue 22.8: after the person allowed the same command shape this many times in one workspace,
 * and never denied it there, the desk offers the rule. Three: twice can be chance, a third time
 * the same shape is a habit worth one click instead of a card each time.
 */
export const RULE_OFFER_AFTER_ALLOWS = 3

export interface RuleOffers {
  list(): RuleOffer[]
  /** Saves the offer as the person edited it, with the same checks as Always allow. */
  accept(input: {
    id: string
    rule: string
    scope: RuleScope
  }): Promise<{ rule: string; alsoAnswered: number }>
  dismiss(id: string): Promise<void>
  /** Stops listening and waits for the last write of the counts. */
  dispose(): Promise<void>
}

/** The counts and open offers are read from `dataDir` and written back on every change (issue 22.8). */
export async function createRuleOffers(options: {
  approvals: ApprovalBroker
  dataDir: string
  workspaceOf(sessionId: string): string | null
  storeFor(workspace: string): Promise<SettingsStore>
  onOffer(offer: RuleOffer): void
  onProblem(message: string): void
  now?: () => Date
}): Promise<RuleOffers> {
  const now = options.now ?? (() => new Date())
  const file = await openRuleOfferCounts(options.dataDir, options.onProblem)
  const keyOf = (workspace: string, rule: string) => `${workspace}\n${rule}`
  const shapes = new Map<string, Shape>(
    file.loaded.shapes.map((shape) => [keyOf(shape.workspace, shape.rule), shape]),
  )
  const offers = new Map<string, RuleOffer>(file.loaded.offers.map((offer) => [offer.id, offer]))
  const save = () => file.save({ version: 1, shapes: [...shapes.values()], offers: [...offers.values()] })
  // What each pending card would teach, kept from its request until the person answers it.
  const pending = new Map<string, { workspace: string; rule: string; command: string }>()

  const offerId = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16)

  const stopRequested = options.approvals.onRequested((approval) => {
    // A network card teaches a domain, not a command shape; an exact-only command has no shape.
    const rule = approval.why.suggestedRules[0]
    if (approval.network || !rule || rule.length > OFFER_RULE_MAX_CHARS || broadRuleProblem(rule) !== null)
      return
    const workspace = options.workspaceOf(approval.sessionId)
    if (workspace) pending.set(approval.id, { workspace, rule, command: approval.command })
  })
  const stopResolved = options.approvals.onResolved(({ id, decision }) => {
    const card = pending.get(id)
    pending.delete(id)
    if (!card) return
    const key = keyOf(card.workspace, card.rule)
    const shape: Shape = shapes.get(key) ?? {
      workspace: card.workspace,
      rule: card.rule,
      allowed: 0,
      denied: false,
      done: false,
      examples: [],
      lastAllowedAt: '',
    }
    if (decision.behavior === 'deny' && decision.decidedBy === 'user_deny') shape.denied = true
    if (decision.behavior !== 'allow' || decision.decidedBy !== 'user_once') {
      remember(key, shape)
      return void save()
    }
    shape.allowed += 1
    shape.lastAllowedAt = now().toISOString()
    const example = exampleOf(card.command)
    shape.examples = [example, ...shape.examples.filter((each) => each !== example)].slice(0, OFFER_EXAMPLES)
    remember(key, shape)
    if (shape.denied || shape.done || shape.allowed < RULE_OFFER_AFTER_ALLOWS) return void save()
    shape.done = true
    const offer: RuleOffer = {
      id: offerId(key),
      rule: shape.rule,
      scope: 'local',
      workspace: shape.workspace,
      allowedCount: shape.allowed,
      examples: shape.examples,
      lastAllowedAt: shape.lastAllowedAt,
    }
    offers.set(offer.id, offer)
    void save()
    options.onOffer(offer)
  })

  const remember = (key: string, shape: Shape) => {
    shapes.delete(key)
    shapes.set(key, shape)
    while (shapes.size > MAX_TRACKED_SHAPES) shapes.delete(shapes.keys().next().value as string)
    while (offers.size > MAX_TRACKED_SHAPES) offers.delete(offers.keys().next().value as string)
  }

  const take = (id: string): RuleOffer => {
    const offer = offers.get(id)
    if (!offer) throw new WorkbenchError('invalid_input', `no rule offer "${id}"`, 'id')
    return offer
  }

  return {
    list: () => [...offers.values()].reverse(),
    async accept({ id, rule, scope }) {
      const offer = take(id)
      if (scope === 'session')
        throw new WorkbenchError(
          'invalid_input',
          'an offer is saved for a workspace or for you: local, workspace or user',
          'scope',
        )
      const store = await options.storeFor(offer.workspace)
      const saved = await store.addRule({ list: 'allow', rule, scope })
      offers.delete(id)
      await save()
      // Cards waiting now that the rule allows are answered by it, as when Always allow saves one.
      return { rule: saved.rule, alsoAnswered: options.approvals.ruleSaved(saved, 'person') }
    },
    async dismiss(id) {
      take(id)
      offers.delete(id)
      await save()
    },
    async dispose() {
      stopRequested()
      stopResolved()
      await file.flushed()
    },
  }
}
