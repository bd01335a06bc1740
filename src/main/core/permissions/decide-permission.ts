import type { PermissionMode } from '../../../shared/settings'
import type { CommandVerdict } from '../bash/verdict'
import { type CommandRegistry, loadCommandRegistry } from './command-registry'
import { decisionText } from './decision-text'
import { findNearMiss } from './near-miss'
import type { PermissionDecision, RuleSet } from './permission-types'
import { findAllowCover, findRestrictingRule } from './rule-match'
import { commandSubjects } from './rule-subjects'

export interface DecideInput {
  verdict: CommandVerdict
  mode: PermissionMode
  /** User, workspace and session rules as data; the order inside one behaviour is the match order. */
  ruleSets: readonly RuleSet[]
  registry?: CommandRegistry
  /** Settings: whether a read-only command that reads outside the workspace asks (default) or runs. */
  readsOutsideWorkspace?: 'ask' | 'allow'
}

/**
 * Whether a Bash command runs, asks or is refused (seed 003, 判定为只读意味着什么). The order:
 *  1. deny rules, then ask rules, from every source: the seed checks project deny/ask before the
 *     mode; we also keep them ahead of yolo (the seed lets yolo through first), because a rule the
 *     user wrote to stop a command must not be silently bypassed by a mode switch;
 *  2. plan: read-only runs, everything else is denied, before any allow rule is consulted;
 *  3. yolo: everything runs;
 *  4. build: read-only runs; otherwise allow rules covering every non-read-only command; else ask.
 */
export function decideBashPermission(input: DecideInput): PermissionDecision {
  const { verdict, mode, ruleSets } = input
  const subjects = commandSubjects(verdict, input.registry ?? loadCommandRegistry())
  const base = { mode, readOnly: verdict.readOnly, nearMiss: null }

  for (const behavior of ['deny', 'ask'] as const) {
    const hit = findRestrictingRule(subjects, ruleSets, behavior)
    if (hit) {
      return {
        ...base,
        outcome: behavior,
        basis: `rule.${behavior}`,
        reason: behavior === 'deny' ? decisionText.deniedByRule(hit) : decisionText.askedByRule(hit),
        rules: [hit],
      }
    }
  }
  const asksFirst = readOnlyAsks(input)
  if (asksFirst && mode !== 'yolo') {
    return {
      ...base,
      outcome: 'ask',
      basis: 'readOnly.asksFirst',
      reason: decisionText.readsFirst(asksFirst),
      rules: [],
    }
  }
  if (mode === 'plan') {
    if (verdict.readOnly)
      return {
        ...base,
        outcome: 'allow',
        basis: 'mode.plan.readOnly',
        reason: decisionText.readOnly(verdict),
        rules: [],
      }
    return {
      ...base,
      outcome: 'deny',
      basis: 'mode.plan.nonReadOnly',
      reason: decisionText.planDenied(verdict),
      rules: [],
      nearMiss: findNearMiss(subjects, ruleSets, true),
    }
  }
  if (mode === 'yolo')
    return {
      ...base,
      outcome: 'allow',
      basis: 'mode.yolo',
      reason: decisionText.yolo(),
      rules: [],
    }
  if (verdict.readOnly)
    return {
      ...base,
      outcome: 'allow',
      basis: 'mode.build.readOnly',
      reason: decisionText.readOnly(verdict),
      rules: [],
    }
  const cover = findAllowCover(subjects, ruleSets)
  if (cover) {
    return {
      ...base,
      outcome: 'allow',
      basis: 'rule.allow',
      reason: decisionText.allowedByRules(cover),
      rules: cover,
    }
  }
  return {
    ...base,
    outcome: 'ask',
    basis: 'mode.build.highRisk',
    reason: decisionText.needsApproval(verdict),
    rules: [],
    nearMiss: findNearMiss(subjects, ruleSets, false),
  }
}

/**
 * A read-only command that reads a secrets location always asks (plan and build); one that reads
 * outside the workspace asks unless the setting allows it or allow rules cover the whole command.
 * Null when it may run as read-only.
 */
function readOnlyAsks(input: DecideInput): string | null {
  const { verdict } = input
  if (!verdict.readOnly || !verdict.asks || verdict.asks.length === 0) return null
  const secrets = verdict.asks.filter((concern) => concern.kind === 'secret')
  const outside = verdict.asks.filter((concern) => concern.kind === 'outside-workspace')
  const shown = [...secrets]
  if (outside.length > 0 && (input.readsOutsideWorkspace ?? 'ask') === 'ask') {
    const subjects = commandSubjects(verdict, input.registry ?? loadCommandRegistry())
    if (!findAllowCover(subjects, input.ruleSets)) shown.push(...outside)
  }
  if (shown.length === 0) return null
  return shown.map((concern) => concern.reason).join('; ')
}
