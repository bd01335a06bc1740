/**
 * Shallowest first, stable otherwise: a mount (bwrap) or rule (Seatbelt, last match wins) deeper
 * in the tree is applied after its parent's, so `.git/modules` read-only and
 * `.git/modules/lib` writable again come out right whatever order they were listed in.
 */
export function byDepth<T>(entries: readonly T[], pathOf: (entry: T) => string): T[] {
  const depth = (path: string) => path.split('/').filter(Boolean).length
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => depth(pathOf(a.entry)) - depth(pathOf(b.entry)) || a.index - b.index)
    .map(({ entry }) => entry)
}
