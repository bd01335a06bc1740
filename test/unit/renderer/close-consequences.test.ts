import { describe, expect, it } from 'vitest'
import { closeConsequences } from '../../../src/renderer/session/close-consequences'

describe('closeConsequences', () => {
  it('is null when nothing would be lost, so the session closes at once', () => {
    expect(closeConsequences(0, 0)).toBeNull()
  })

  it('names denied approvals and stopped tasks with their counts and plurals', () => {
    expect(closeConsequences(2, 1)).toBe('2 approvals will be denied, 1 task will be stopped')
    expect(closeConsequences(1, 0)).toBe('1 approval will be denied')
    expect(closeConsequences(0, 3)).toBe('3 tasks will be stopped')
  })
})
