// Shellgate's notification worker (browser mode). It shows nothing by itself and holds no key:
// the page calls registration.showNotification, and a click on a notification or one of its
// buttons is handed back to the open Shellgate pages, which answer over their own connection
// (and only for an approval they have waiting). Without an open page, a click does nothing.

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('notificationclick', (event) => {
  const approvalId = event.notification.data?.approvalId
  const action = event.action === 'allow_once' || event.action === 'deny' ? event.action : null
  event.notification.close()
  if (typeof approvalId !== 'string') return
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (pages) => {
      for (const page of pages) page.postMessage({ type: 'shellgate.notification', approvalId, action })
      // A click on the body (no button) opens the card: the first page comes to the front.
      if (!action && pages[0]) await pages[0].focus().catch(() => undefined)
    }),
  )
})
