/**
 * The three answers, always in this order and always on these keys, so a hand that has learnt them
 * never approves the wrong thing. Digits, because they need no modifier and no text field uses them here.
 */
export const APPROVAL_ACTIONS = [
  { kind: 'allow_once', label: 'Allow once', key: '1' },
  { kind: 'always_allow', label: 'Always allow', key: '2' },
  { kind: 'deny', label: 'Deny', key: '3' },
] as const

export type ApprovalActionKind = (typeof APPROVAL_ACTIONS)[number]['kind']

export function actionForKey(key: string): ApprovalActionKind | null {
  return APPROVAL_ACTIONS.find((action) => action.key === key)?.kind ?? null
}
