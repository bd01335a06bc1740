import { type ApprovalActionKind, actionForKey } from './approval-actions'

/**
 * How long the card the keys act on stays unarmed after it became that card (it appeared, the one
 * before it was answered, the person picked it) or after the window came back into focus: a key
 * already on its way, or meant for another window, never lands on a command nobody has looked at.
 */
export const SHORTCUT_ARM_DELAY_MS = 400

/** What a keydown is to the inbox, decided from plain facts so the rules can be read and tested. */
export interface ApprovalKeyPress {
  key: string
  repeat: boolean
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  /** Another handler (a form's Enter, a card's own Esc) already used it. */
  defaultPrevented: boolean
  /** The focus is in a text field, a select or an editable element: the key is text, never an answer. */
  typing: boolean
  /** The event's own time (event.timeStamp), on the clock of `armedAt`. */
  at: number
}

export type ApprovalKeyOutcome =
  /** Not an answer key, or not the inbox's to take: let it through untouched. */
  | { kind: 'pass' }
  /** An answer key pressed before the card was armed: not used, and the person is told so. */
  | { kind: 'early'; action: ApprovalActionKind; targetId: string }
  | { kind: 'act'; action: ApprovalActionKind; targetId: string }

/**
 * 1–4 answer the target card (the one the person picked, else the oldest waiting) wherever the focus
 * is, except in a text field. Held down (auto-repeat) or with a modifier they answer nothing. A key
 * whose event is older than the card's arming (pressed before the card appeared or became the
 * target, or within SHORTCUT_ARM_DELAY_MS of it) is "early": shown, never acted on.
 */
export function decideApprovalKey(
  press: ApprovalKeyPress,
  target: { id: string; armedAt: number } | null,
): ApprovalKeyOutcome {
  if (press.defaultPrevented || press.repeat || press.altKey || press.ctrlKey || press.metaKey)
    return { kind: 'pass' }
  const action = actionForKey(press.key)
  if (!action || press.typing || !target) return { kind: 'pass' }
  if (press.at < target.armedAt) return { kind: 'early', action, targetId: target.id }
  return { kind: 'act', action, targetId: target.id }
}

/** The card the keys act on: the one the person picked while it still waits, else the oldest. */
export function keyTarget(orderedIds: readonly string[], pickedId: string | null): string | null {
  if (pickedId !== null && orderedIds.includes(pickedId)) return pickedId
  return orderedIds[0] ?? null
}

/** Oldest first, by when each was asked; the list's own order breaks ties (arrival order). */
export function oldestFirst<T extends { requestedAt: string }>(approvals: readonly T[]): T[] {
  return approvals
    .map((approval, index) => ({ approval, index, at: Date.parse(approval.requestedAt) }))
    .sort((a, b) => (a.at === b.at || Number.isNaN(a.at - b.at) ? a.index - b.index : a.at - b.at))
    .map(({ approval }) => approval)
}
