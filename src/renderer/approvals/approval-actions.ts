/**
 * The four answers, always in this order and always on these keys, so a hand that has learnt them
 * never approves the wrong thing. Digits, because they need no modifier; a digit typed into a text
 * field stays text (see approval-key-policy).
 */
export const APPROVAL_ACTIONS = [
  { kind: 'allow_once', label: 'Allow once', key: '1' },
  { kind: 'always_allow', label: 'Always allow', key: '2' },
  { kind: 'deny', label: 'Deny', key: '3' },
  { kind: 'deny_with_message', label: 'Deny with a message', key: '4' },
] as const

export type ApprovalActionKind = (typeof APPROVAL_ACTIONS)[number]['kind']

export function actionForKey(key: string): ApprovalActionKind | null {
  return APPROVAL_ACTIONS.find((action) => action.key === key)?.kind ?? null
}

export function keyForAction(kind: ApprovalActionKind): string {
  return APPROVAL_ACTIONS.find((action) => action.kind === kind)?.key ?? ''
}
