import { useDeskNotifications } from './NotificationsProvider'

/**
 * The one visible place a browser is asked for notification permission (never unprompted), and
 * what the page can do with it. In the inbox only while the browser has not been asked yet.
 */
export function EnableNotificationsButton() {
  const desk = useDeskNotifications()
  if (desk.runtime !== 'browser' || desk.permission !== 'default') return null
  return (
    <p className="notice-offer">
      Get a system notification when an agent waits for you, even while this tab is in the background.{' '}
      <button type="button" className="primary" onClick={() => void desk.enable()}>
        Turn on notifications
      </button>
    </p>
  )
}

/** Settings → Notifications: the permission, what a notification can do here, and the chime. */
export function NotificationsPanel() {
  const desk = useDeskNotifications()
  return (
    <section className="panel" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p data-field="notification-state">{stateWords(desk)}</p>
      <EnableNotificationsButton />
      <p className="muted">
        The tab's icon and title always show how many approvals wait. A browser remembers its permission per
        address: a Shellgate served on another port asks again.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={desk.sound}
          onChange={(event) => desk.setSound(event.target.checked)}
        />
        Play a sound when an agent's command waits for you
      </label>
      {desk.sound && desk.soundBlocked && (
        <p className="muted" role="status">
          The browser plays sound only after a click on this page since it loaded: click anywhere here once.
        </p>
      )}
    </section>
  )
}

function stateWords(desk: ReturnType<typeof useDeskNotifications>): string {
  if (desk.runtime === 'electron')
    return 'The desktop app shows a system notification for each new approval while its window is not focused, with Allow once and Deny buttons on macOS and Windows (Linux has no buttons), and again when a hook has waited 30 s.'
  if (desk.permission === 'unsupported') return 'This browser has no notifications.'
  if (desk.permission === 'denied')
    return "Notifications are blocked for this page: allow them in the browser's site settings for this address, then reload."
  if (desk.permission === 'default') return 'Notifications are off: this browser has not been asked yet.'
  return desk.buttons
    ? 'Notifications are on: one for each new approval while this tab is in the background, with Allow once and Deny for a short, plain command (anything longer opens its card), and again when a hook has waited 30 s.'
    : 'Notifications are on, without buttons in this browser: a click opens the approval here.'
}
