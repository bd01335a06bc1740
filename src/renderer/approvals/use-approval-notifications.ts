import { useEvent } from '../events/use-event'

/**
 * A system notification for a new approval while the window is not focused, so an agent never
 * waits unseen. Only when permission is already granted (Electron grants it; a browser tab is never
 * prompted unasked). The body names the command and nothing else.
 */
export function useApprovalNotifications(): void {
  useEvent('approvals.requested', (approval) => {
    if (document.hasFocus() || typeof Notification === 'undefined' || Notification.permission !== 'granted')
      return
    const notification = new Notification('Shellgate: approval needed', {
      body: approval.command,
      tag: approval.id,
    })
    notification.onclick = () => {
      window.focus()
      location.hash = '#/approvals'
    }
  })
}
