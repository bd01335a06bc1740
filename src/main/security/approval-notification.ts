import { type ApprovalNotice, type ApprovalNoticeInput, approvalNotice } from '../../shared/approval-notice'

/**
 * Electron's notification buttons: macOS (a signed app whose alert style is "alert") and Windows
 * show them; Linux shows none.
 * https://www.electronjs.org/docs/latest/api/structures/notification-action
 */
export function notificationButtonsOn(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32'
}

/**
 * A system notification for a new approval, only when nobody is looking at the window: a person
 * who is looking sees the card and the badge, and a notification then is just noise. The body
 * carries the command (cut to a line) but never its output; Allow once and Deny only where the
 * platform has buttons and the whole command fits (shared/approval-notice).
 */
export function approvalNotification(
  approval: ApprovalNoticeInput,
  windowFocused: boolean,
  platform: NodeJS.Platform,
): ApprovalNotice | null {
  if (windowFocused) return null
  return approvalNotice(approval, notificationButtonsOn(platform))
}
