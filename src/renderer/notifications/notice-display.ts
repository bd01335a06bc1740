import type { ApprovalNotice } from '../../shared/approval-notice'

/** The worker that shows notifications with buttons and hands clicks back (public/notification-worker.js). */
export const NOTIFICATION_WORKER_URL = './notification-worker.js'

export type NoticePermission = 'unsupported' | 'default' | 'granted' | 'denied'

export function noticePermission(): NoticePermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

/** Registered once permission is granted; null where service workers are unavailable. */
export async function notificationWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null
  try {
    await navigator.serviceWorker.register(NOTIFICATION_WORKER_URL)
    return await navigator.serviceWorker.ready
  } catch {
    return null
  }
}

/** Chromium shows buttons on a worker's notifications (Notification.maxActions); other browsers may not. */
export function workerHasButtons(worker: ServiceWorkerRegistration | null): boolean {
  const max = (Notification as unknown as { maxActions?: number }).maxActions ?? 0
  return worker !== null && max >= 2
}

/**
 * Shows one notice: through the worker (with its buttons, which come back as a message) or, without
 * one, as a plain page notification whose click brings this window forward.
 */
export async function showNotice(
  notice: ApprovalNotice,
  approvalId: string,
  worker: ServiceWorkerRegistration | null,
): Promise<void> {
  if (noticePermission() !== 'granted') return
  if (worker) {
    await worker.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      data: { approvalId },
      requireInteraction: true,
      ...{ actions: notice.actions.map(({ action, title }) => ({ action, title })) },
    })
    return
  }
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag })
  notification.onclick = () => {
    window.focus()
    location.hash = '#/approvals'
  }
}
