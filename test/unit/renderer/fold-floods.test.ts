import { describe, expect, it } from 'vitest'
import { FLOOD_FOLD_AFTER, foldFloods } from '../../../src/renderer/approvals/fold-floods'

const card = (id: string, sessionId: string) => ({ id, sessionId })

describe('foldFloods', () => {
  it('shows every card while no conversation has more than the limit', () => {
    const list = [card('a1', 'a'), card('b1', 'b'), card('a2', 'a'), card('a3', 'a')]
    expect(foldFloods(list, new Set()).map((item) => item.kind)).toEqual(['card', 'card', 'card', 'card'])
  })

  it('folds one agent’s flood into its oldest card and one row, the others’ cards in place', () => {
    const flood = Array.from({ length: 64 }, (_, n) => card(`f${n}`, 'flood'))
    const list = [card('b1', 'b'), ...flood.slice(0, 10), card('c1', 'c'), ...flood.slice(10)]
    const items = foldFloods(list, new Set())
    expect(
      items.map((item) => (item.kind === 'card' ? item.approval.id : `folded:${item.hidden.length}`)),
    ).toEqual(['b1', 'f0', 'folded:63', 'c1'])
    expect(FLOOD_FOLD_AFTER).toBeLessThan(64)
  })

  it('shows them all once the person unfolds that conversation', () => {
    const flood = Array.from({ length: 5 }, (_, n) => card(`f${n}`, 'flood'))
    expect(foldFloods(flood, new Set(['flood']))).toHaveLength(5)
  })
})
