/**
 * More than this many cards waiting from one conversation is a flood (an agent in a loop, issue
 * 19.5): the inbox shows its oldest card and folds the rest into one line, so the other agents'
 * cards stay in view.
 */
export const FLOOD_FOLD_AFTER = 3

export type InboxItem<T> = { kind: 'card'; approval: T } | { kind: 'folded'; sessionId: string; hidden: T[] }

/**
 * The inbox's rows, oldest first: every card, except that a conversation with more than
 * FLOOD_FOLD_AFTER waiting (and not unfolded by the person) shows only its oldest, followed by one
 * folded row holding the rest.
 */
export function foldFloods<T extends { sessionId: string }>(
  oldestFirst: readonly T[],
  unfolded: ReadonlySet<string>,
): InboxItem<T>[] {
  const counts = new Map<string, number>()
  for (const approval of oldestFirst)
    counts.set(approval.sessionId, (counts.get(approval.sessionId) ?? 0) + 1)
  const items: InboxItem<T>[] = []
  const folds = new Map<string, { kind: 'folded'; sessionId: string; hidden: T[] }>()
  for (const approval of oldestFirst) {
    const flood =
      (counts.get(approval.sessionId) ?? 0) > FLOOD_FOLD_AFTER && !unfolded.has(approval.sessionId)
    const fold = folds.get(approval.sessionId)
    if (!flood) items.push({ kind: 'card', approval })
    else if (!fold) {
      items.push({ kind: 'card', approval })
      const row = { kind: 'folded' as const, sessionId: approval.sessionId, hidden: [] as T[] }
      folds.set(approval.sessionId, row)
      items.push(row)
    } else fold.hidden.push(approval)
  }
  return items
}
