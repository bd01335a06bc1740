import { describe, expect, it } from 'vitest'
import {
  type ApprovalKeyPress,
  decideApprovalKey,
  keyTarget,
  oldestFirst,
} from '../../../src/renderer/approvals/approval-key-policy'

const press = (overrides: Partial<ApprovalKeyPress> = {}): ApprovalKeyPress => ({
  key: '1',
  repeat: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  defaultPrevented: false,
  typing: false,
  at: 1_000,
  ...overrides,
})
const armed = { id: 'a', armedAt: 500 }

describe('decideApprovalKey', () => {
  it.each([
    ['1', 'allow_once'],
    ['2', 'always_allow'],
    ['3', 'deny'],
    ['4', 'deny_with_message'],
  ])('%s answers the target with %s once it is armed', (key, action) => {
    expect(decideApprovalKey(press({ key }), armed)).toEqual({ kind: 'act', action, targetId: 'a' })
  })

  it('never takes a key typed into a text field, held down, with a modifier, or already used', () => {
    for (const overrides of [
      { typing: true },
      { repeat: true },
      { altKey: true },
      { ctrlKey: true },
      { metaKey: true },
      { defaultPrevented: true },
    ])
      expect(decideApprovalKey(press(overrides), armed)).toEqual({ kind: 'pass' })
  })

  it('lets other keys and keys with no card through', () => {
    expect(decideApprovalKey(press({ key: '5' }), armed)).toEqual({ kind: 'pass' })
    expect(decideApprovalKey(press({ key: 'Enter' }), armed)).toEqual({ kind: 'pass' })
    expect(decideApprovalKey(press(), null)).toEqual({ kind: 'pass' })
  })

  it('calls a key pressed before the card was armed early, even when it is handled after', () => {
    expect(decideApprovalKey(press({ at: 499 }), armed)).toEqual({
      kind: 'early',
      action: 'allow_once',
      targetId: 'a',
    })
    expect(decideApprovalKey(press({ at: 500 }), armed).kind).toBe('act')
    // A target nobody armed yet (it just took over) is never armed.
    expect(decideApprovalKey(press(), { id: 'b', armedAt: Number.POSITIVE_INFINITY }).kind).toBe('early')
  })
})

describe('keyTarget and oldestFirst', () => {
  it('follows the card the person picked while it waits, else the oldest', () => {
    expect(keyTarget(['a', 'b', 'c'], null)).toBe('a')
    expect(keyTarget(['a', 'b', 'c'], 'b')).toBe('b')
    expect(keyTarget(['a', 'c'], 'b')).toBe('a')
    expect(keyTarget([], 'b')).toBeNull()
  })

  it('orders by request time, arrival order breaking ties', () => {
    const list = [
      { id: 'late', requestedAt: '2026-01-01T10:00:02Z' },
      { id: 'tie-1', requestedAt: '2026-01-01T10:00:01Z' },
      { id: 'early', requestedAt: '2026-01-01T10:00:00Z' },
      { id: 'tie-2', requestedAt: '2026-01-01T10:00:01Z' },
    ]
    expect(oldestFirst(list).map((a) => a.id)).toEqual(['early', 'tie-1', 'tie-2', 'late'])
  })
})
