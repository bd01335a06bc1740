import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, Notification, protocol, session, type WebContents } from 'electron'
import { APP_ORIGIN, APP_SCHEME } from '../shared/ipc/channels'
import { createCore } from './core/app'
import { sanitizeEntryEnv } from './core/env/sanitize-entry'
import { createIpcHost } from './ipc/host'
import { appProtocolResponse } from './security/app-protocol-response'
import { approvalNotification } from './security/approval-notification'
import { isAllowedNavigation, windowOpenDecision } from './security/navigation-policy'
import { isPermissionGranted } from './security/permission-policy'
import { secureWebPreferences } from './security/web-preferences'
import { attachElectronTransport } from './transports/electron'

// Electron glue only: every decision lives in a pure, tested function under security/ or core/.
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url))
const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url))

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

app.enableSandbox()

const host = await createIpcHost((hub) =>
  createCore({
    workspace: process.cwd(),
    env: sanitizeEntryEnv(process.env, process.platform),
    runtime: 'electron',
    electronVersion: process.versions.electron ?? null,
    emit: hub.emit,
  }),
)

function serveAppProtocol(): void {
  protocol.handle(APP_SCHEME, (request) => appProtocolResponse(rendererDir, request.url))
}

function guardWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => windowOpenDecision())
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Shellgate',
    show: false,
    webPreferences: secureWebPreferences(preloadPath),
  })
  const detach = attachElectronTransport(window.webContents, host.dispatcher, host.hub)
  const stopNotifying = host.hub.subscribe((event) => {
    if (event.name !== 'approvals.requested' || !Notification.isSupported()) return
    const note = approvalNotification(event.payload as { command: string; cwd: string }, window.isFocused())
    if (!note) return
    const notification = new Notification(note)
    notification.on('click', () => {
      window.show()
      window.focus()
      void window.webContents.executeJavaScript("location.hash = '#/approvals'")
    })
    notification.show()
  })
  window.on('closed', () => {
    detach()
    stopNotifying()
  })
  window.once('ready-to-show', () => window.show())
  void window.loadURL(`${APP_ORIGIN}/index.html`)
  return window
}

app.on('web-contents-created', (_event, contents) => guardWebContents(contents))

app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details.requestingUrl ?? '')),
  )
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin),
  )
  serveAppProtocol()
  createMainWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

let disposing = false
app.on('will-quit', (event) => {
  if (disposing) return
  disposing = true
  event.preventDefault()
  void host.core.dispose().finally(() => app.exit(0))
})
