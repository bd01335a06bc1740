import { APP_ORIGIN } from '../../shared/ipc/channels'
import { originOf } from './trusted-ipc-sender'

/**
 * The window never leaves the app: in-app routing is client-side, so any navigation to another
 * origin is either a bug or an attack (a link in command output, an injected redirect).
 * https://www.electronjs.org/docs/latest/tutorial/security#13-disable-or-limit-navigation
 */
export function isAllowedNavigation(url: string): boolean {
  return originOf(url) === APP_ORIGIN
}

/** window.open and target=_blank: always denied; the app opens no second window. */
export function windowOpenDecision(): { action: 'deny' } {
  return { action: 'deny' }
}
