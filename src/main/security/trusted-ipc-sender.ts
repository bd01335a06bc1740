import { APP_ORIGIN } from '../../shared/ipc/channels'

/** What Electron tells us about who sent an IPC message, reduced to plain data so it can be tested. */
export interface IpcSenderFacts {
  webContentsId: number
  /** null when the frame is already gone. */
  frame: { url: string; isMainFrame: boolean } | null
}

/**
 * Only our own window's main frame, showing our own origin, may call into main.
 * https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages
 */
export function isTrustedSender(sender: IpcSenderFacts, trustedWebContentsIds: ReadonlySet<number>): boolean {
  if (!trustedWebContentsIds.has(sender.webContentsId)) return false
  if (!sender.frame?.isMainFrame) return false
  return originOf(sender.frame.url) === APP_ORIGIN
}

export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    // Custom schemes report origin "null"; rebuild it from the parts for app://.
    return parsed.protocol === 'app:' ? `app://${parsed.host}` : parsed.origin
  } catch {
    return null
  }
}
