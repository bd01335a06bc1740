import { describe, expect, it } from 'vitest'
import { approvalNotification } from '../../../src/main/security/approval-notification'
import {
  answerableFromNotice,
  NOTICE_COMMAND_MAX_CHARS,
  stillWaitingNotice,
} from '../../../src/shared/approval-notice'

const approval = { id: 'a1', command: 'rm -rf build', cwd: '/w', agent: 'claude-code 2.1.332' }

describe('approvalNotification', () => {
  it('stays quiet while the window is focused', () => {
    expect(approvalNotification(approval, true, 'darwin')).toBeNull()
  })

  it('names who asks, the command and where it runs when the window is not focused', () => {
    expect(approvalNotification(approval, false, 'linux')).toEqual({
      title: 'claude-code 2.1.332 needs your approval',
      body: 'rm -rf build\nin /w',
      tag: 'shellgate-approval-a1',
      actions: [],
    })
    expect(approvalNotification({ ...approval, agent: null }, false, 'linux')?.title).toBe(
      'Your command needs your approval',
    )
  })

  it('offers Allow once and Deny on macOS and Windows, where Electron shows buttons', () => {
    for (const platform of ['darwin', 'win32'] as const)
      expect(approvalNotification(approval, false, platform)?.actions).toEqual([
        { action: 'allow_once', title: 'Allow once' },
        { action: 'deny', title: 'Deny' },
      ])
  })

  it('offers no button for a command the notification cannot show whole, and says to open it', () => {
    for (const command of [
      `${'x'.repeat(NOTICE_COMMAND_MAX_CHARS)}y`,
      'echo one\nrm -rf ~',
      'echo safe\u202Etxt.sh',
      'ls\u00a0-la',
    ]) {
      expect(answerableFromNotice(command)).toBe(false)
      const note = approvalNotification({ ...approval, command }, false, 'darwin')
      expect(note?.actions).toEqual([])
      expect(note?.body).toContain('Open Shellgate to read it whole and answer.')
    }
  })

  it('keeps a long or multi-line command to one short line, invisible characters revealed', () => {
    const note = approvalNotification(
      { ...approval, command: `${'x'.repeat(300)}\nsecond line` },
      false,
      'linux',
    )
    expect(note?.body.split('\n')[0]).toHaveLength(NOTICE_COMMAND_MAX_CHARS + 2)
    expect(note?.body).not.toContain('second line')
    expect(approvalNotification({ ...approval, command: 'a\u202Eb' }, false, 'linux')?.body).toContain(
      '⟨U+202E⟩',
    )
  })

  it('a hook waiting 30 s gets a second notification that says so', () => {
    const note = stillWaitingNotice(approval, true)
    expect(note.title).toBe('claude-code 2.1.332 has waited 30 s for your answer')
    expect(note.tag).toBe('shellgate-approval-a1')
    expect(note.actions).toHaveLength(2)
  })
})
