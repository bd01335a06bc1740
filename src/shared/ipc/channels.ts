/** The two Electron IPC channels; the preload and the main-process transport both use these. */
export const REQUEST_CHANNEL = 'shellgate:request'
export const EVENT_CHANNEL = 'shellgate:event'

/** The renderer origin in Electron: a privileged custom scheme, never file://. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'shellgate'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
