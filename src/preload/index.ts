import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron'
import { EVENT_CHANNEL, REQUEST_CHANNEL } from '../shared/ipc/channels'
import type { EventEnvelope, RequestEnvelope, ResponseEnvelope } from '../shared/ipc/envelope'

// Exactly two functions cross the bridge; the renderer never sees ipcRenderer itself.
contextBridge.exposeInMainWorld('shellgate', {
  request: (envelope: RequestEnvelope): Promise<ResponseEnvelope> =>
    ipcRenderer.invoke(REQUEST_CHANNEL, envelope),
  onEvent: (listener: (event: EventEnvelope) => void): (() => void) => {
    const forward = (_event: IpcRendererEvent, envelope: EventEnvelope) => listener(envelope)
    ipcRenderer.on(EVENT_CHANNEL, forward)
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, forward)
  },
})
