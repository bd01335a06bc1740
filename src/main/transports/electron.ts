import type { IpcMainInvokeEvent, WebContents } from 'electron'
import { EVENT_CHANNEL, REQUEST_CHANNEL } from '../../shared/ipc/channels'
import type { ContractShape } from '../../shared/ipc/define'
import { MAX_ENVELOPE_BYTES, type ResponseEnvelope } from '../../shared/ipc/envelope'
import type { Dispatcher } from '../ipc/dispatcher'
import type { EventHub } from '../ipc/event-hub'
import { type IpcSenderFacts, isTrustedSender } from '../security/trusted-ipc-sender'

/**
 * Electron IPC for one window: one invoke channel, one event channel, on that window's own
 * webContents.ipc so no other window or frame can reach the handler.
 */
export function attachElectronTransport<C extends ContractShape>(
  webContents: WebContents,
  dispatcher: Dispatcher,
  hub: EventHub<C>,
): () => void {
  const trusted = new Set([webContents.id])
  let controller = new AbortController()
  const connectionId = `electron-${webContents.id}`

  webContents.ipc.handle(
    REQUEST_CHANNEL,
    async (event: IpcMainInvokeEvent, envelope: unknown): Promise<ResponseEnvelope> => {
      if (!isTrustedSender(senderFacts(event), trusted)) {
        return {
          kind: 'response',
          id: null,
          ok: false,
          error: { code: 'denied', message: 'untrusted sender' },
        }
      }
      if (exceedsEnvelopeCap(envelope)) {
        return {
          kind: 'response',
          id: null,
          ok: false,
          error: { code: 'invalid_input', message: `message exceeds ${MAX_ENVELOPE_BYTES} bytes` },
        }
      }
      return dispatcher.dispatch(envelope, {
        connectionId,
        // The app's own window is the person; the sender check above is what makes that true.
        role: 'ui',
        transport: 'electron-ipc',
        signal: controller.signal,
      })
    },
  )

  const unsubscribe = hub.subscribe((event) => {
    if (!webContents.isDestroyed()) webContents.send(EVENT_CHANNEL, event)
  })
  // A reload is a new page: whatever the old page was waiting for is abandoned.
  const abandonInFlight = () => {
    controller.abort()
    controller = new AbortController()
  }
  webContents.on('did-start-navigation', abandonInFlight)
  webContents.on('render-process-gone', abandonInFlight)

  return () => {
    unsubscribe()
    controller.abort()
    if (!webContents.isDestroyed()) {
      webContents.ipc.removeHandler(REQUEST_CHANNEL)
      webContents.off('did-start-navigation', abandonInFlight)
      webContents.off('render-process-gone', abandonInFlight)
    }
  }
}

function senderFacts(event: IpcMainInvokeEvent): IpcSenderFacts {
  const frame = event.senderFrame
  return {
    webContentsId: event.sender.id,
    frame: frame ? { url: frame.url, isMainFrame: frame === event.sender.mainFrame } : null,
  }
}

/** Structured clone has no size limit of its own; measure the JSON form the other transports cap. */
function exceedsEnvelopeCap(envelope: unknown): boolean {
  try {
    return Buffer.byteLength(JSON.stringify(envelope) ?? '', 'utf8') > MAX_ENVELOPE_BYTES
  } catch {
    return true
  }
}
