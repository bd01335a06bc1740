import { describe, expect, it } from 'vitest'
import { decideElectronStart, secondInstanceSteps } from '../../../src/main/hub/single-instance-policy'

describe('Electron single instance', () => {
  it.each([
    [false, { kind: 'claimed' as const }, 'quit'],
    [false, { kind: 'running' as const, pid: 42 }, 'quit'],
    [false, { kind: 'refused' as const, message: 'x' }, 'quit'],
    [true, { kind: 'claimed' as const }, 'become-hub'],
    [true, { kind: 'running' as const, pid: 42 }, 'open-running-hub'],
    [true, { kind: 'running' as const, pid: null }, 'open-running-hub'],
    [true, { kind: 'refused' as const, message: 'run/ belongs to another user' }, 'refuse'],
  ])('lock %s, hub %o → %s', (gotSingleInstanceLock, hub, action) => {
    expect(decideElectronStart({ gotSingleInstanceLock, hub }).action).toBe(action)
  })

  it('says who holds the home and passes a refusal on word for word', () => {
    expect(decideElectronStart({ gotSingleInstanceLock: true, hub: { kind: 'running', pid: 42 } })).toEqual({
      action: 'open-running-hub',
      reason:
        'Shellgate is already running for this data folder (process 42, e.g. shellgate serve); opening its UI',
    })
    expect(
      decideElectronStart({
        gotSingleInstanceLock: true,
        hub: { kind: 'refused', message: 'run/ is unsafe' },
      }),
    ).toEqual({ action: 'refuse', reason: 'run/ is unsafe' })
  })

  it.each([
    [{ exists: false, minimized: false, visible: false }, ['create', 'focus']],
    [{ exists: true, minimized: false, visible: true }, ['focus']],
    [{ exists: true, minimized: true, visible: true }, ['restore', 'focus']],
    [{ exists: true, minimized: false, visible: false }, ['show', 'focus']],
    [{ exists: true, minimized: true, visible: false }, ['restore', 'show', 'focus']],
  ])('second instance with window %o → %o', (window, steps) => {
    expect(secondInstanceSteps(window)).toEqual(steps)
  })
})
