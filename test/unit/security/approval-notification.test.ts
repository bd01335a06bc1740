import { describe, expect, it } from 'vitest'
import { approvalNotification } from '../../../src/main/security/approval-notification'

describe('approvalNotification', () => {
  it('stays quiet while the window is focused', () => {
    expect(approvalNotification({ command: 'rm -rf build', cwd: '/w' }, true)).toBeNull()
  })

  it('names the command and where it runs when the window is not focused', () => {
    expect(approvalNotification({ command: 'rm -rf build', cwd: '/w' }, false)).toEqual({
      title: 'Shellgate: a command needs your approval',
      body: 'rm -rf build\nin /w',
    })
  })

  it('keeps a long or multi-line command to one short line', () => {
    const note = approvalNotification({ command: `${'x'.repeat(300)}\nsecond line`, cwd: '/w' }, false)
    expect(note?.body.split('\n')[0]).toHaveLength(122)
    expect(note?.body).toContain('… …')
    expect(note?.body).not.toContain('second line')
  })
})
