/**
 * The renderer needs no browser permission (camera, geolocation, notifications, clipboard
 * read, …): notifications are shown by main. Every request and check is refused.
 * https://www.electronjs.org/docs/latest/tutorial/security#5-handle-session-permission-requests-from-remote-content
 */
export function isPermissionGranted(_permission: string, _requestingOrigin: string): boolean {
  return false
}
