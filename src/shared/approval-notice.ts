import { revealInvisible } from './reveal-invisible'

/**
 * A command is answerable from a notification only when the notification shows all of it: one
 * line, this short, nothing invisible. Anything else is opened and read on its card first.
 */
export const NOTICE_COMMAND_MAX_CHARS = 100

/** A hook's client gives up on a slow answer (Claude Code's hook timeout); say so before that. */
export const HOOK_WAIT_NOTICE_MS = 30_000

export type NoticeAction = 'allow_once' | 'deny'

export interface ApprovalNoticeInput {
  id: string
  command: string
  cwd: string
  /** "claude-code 2.1.332"; null for the person's own command. */
  agent: string | null
}

export interface ApprovalNotice {
  title: string
  body: string
  /** One notification per approval: a later one for it replaces the earlier. */
  tag: string
  /** Allow once and Deny, only where the platform has buttons and the whole command is in the body. */
  actions: Array<{ action: NoticeAction; title: string }>
}

const ACTIONS: ApprovalNotice['actions'] = [
  { action: 'allow_once', title: 'Allow once' },
  { action: 'deny', title: 'Deny' },
]

export function answerableFromNotice(command: string): boolean {
  const revealed = revealInvisible(command)
  return (
    revealed.hidden === 0 &&
    !command.includes('\n') &&
    command.trim() !== '' &&
    command.length <= NOTICE_COMMAND_MAX_CHARS
  )
}

/** The command as one short line (never output), and whether anything was cut. */
function commandLine(command: string): string {
  const revealed = revealInvisible(command).text
  const first = revealed.split('\n', 1)[0] ?? ''
  const cut =
    first.length > NOTICE_COMMAND_MAX_CHARS ? `${first.slice(0, NOTICE_COMMAND_MAX_CHARS - 1)}…` : first
  return revealed.includes('\n') ? `${cut} …` : cut
}

/**
 * The notification for a new approval: who asks, the command, where. `buttons` says whether the
 * platform shows action buttons (Electron on macOS and Windows, a browser's service worker).
 */
export function approvalNotice(input: ApprovalNoticeInput, buttons: boolean): ApprovalNotice {
  const answerable = buttons && answerableFromNotice(input.command)
  return {
    title: `${input.agent ?? 'Your command'} needs your approval`,
    body: `${commandLine(input.command)}\nin ${input.cwd}${answerable || !buttons ? '' : '\nOpen Shellgate to read it whole and answer.'}`,
    tag: `shellgate-approval-${input.id}`,
    actions: answerable ? ACTIONS : [],
  }
}

/** The second notification, for an approval a hook has been waiting on for HOOK_WAIT_NOTICE_MS. */
export function stillWaitingNotice(input: ApprovalNoticeInput, buttons: boolean): ApprovalNotice {
  const first = approvalNotice(input, buttons)
  return {
    ...first,
    title: `${input.agent ?? 'A hook'} has waited ${HOOK_WAIT_NOTICE_MS / 1000} s for your answer`,
    body: `${first.body}\nIts client may give up soon and fall back to its own prompt.`,
  }
}

/**
 * Whether an approval waits on a hook (whose client gives up on its own clock): the call's own
 * channel when known, else its conversation has had hook calls.
 */
export function waitsOnHook(via: string | undefined, channels: readonly string[]): boolean {
  return via === undefined ? channels.includes('hook') : via === 'hook'
}
