import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, Notification, protocol, session, type WebContents } from 'electron'
import {
  type ApprovalNotice,
  HOOK_WAIT_NOTICE_MS,
  stillWaitingNotice,
  waitsOnHook,
} from '../shared/approval-notice'
import { APP_ORIGIN, APP_SCHEME } from '../shared/ipc/channels'
import { createCore } from './core/app'
import { sanitizeEntryEnv } from './core/env/sanitize-entry'
import { resolveShellgateHome } from './core/paths'
import { APP_VERSION } from './core/version'
import { openRunningHubUi } from './hub/hub-address'
import { HubError } from './hub/hub-error'
import { type ClaimOutcome, claimHub } from './hub/hub-server'
import { decideElectronStart, secondInstanceSteps } from './hub/single-instance-policy'
import { createIpcHost } from './ipc/host'
import { appProtocolResponse } from './security/app-protocol-response'
import { approvalNotification, notificationButtonsOn } from './security/approval-notification'
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

// One core per SHELLGATE_HOME: Electron's own lock for a second app window, the hub lock for a
// `shellgate serve` on the same home. The decision is decideElectronStart's; this only acts on it.
const gotSingleInstanceLock = app.requestSingleInstanceLock()
const home = resolveShellgateHome(process.env)
const hubClaim: ClaimOutcome | { kind: 'refused'; message: string } = gotSingleInstanceLock
  ? await claimHub({ home, platform: process.platform, warn: (message) => console.warn(message) }).catch(
      (error: unknown) => {
        if (error instanceof HubError)
          return { kind: 'refused' as const, message: `${error.message} [${error.code}]` }
        throw error
      },
    )
  : { kind: 'refused', message: 'not asked: another app window holds the lock' }
const start = decideElectronStart({ gotSingleInstanceLock, hub: hubClaim })
if (start.action !== 'become-hub' || hubClaim.kind !== 'claimed') {
  if (start.action === 'open-running-hub') {
    // The running browser-mode hub opens a login in the browser itself; the code never reaches us.
    await openRunningHubUi(home).catch(() => null)
  }
  if (start.action === 'refuse') {
    await app.whenReady()
    dialog.showErrorBox('Shellgate cannot start', start.reason)
  }
  console.error(start.action === 'become-hub' ? 'Shellgate: the hub claim was lost' : start.reason)
  app.exit(start.action === 'refuse' ? 2 : 0)
  // Nothing below runs in a process that is not the hub.
  await new Promise<never>(() => undefined)
}
const claim = hubClaim.kind === 'claimed' ? hubClaim.claim : null

const host = await createIpcHost((hub) =>
  createCore({
    workspace: process.cwd(),
    env: sanitizeEntryEnv(process.env, process.platform),
    runtime: 'electron',
    electronVersion: process.versions.electron ?? null,
    emit: hub.emit,
  }),
)

// The app window is the person; the socket lets agents (MCP) reach the same core. The app
// serves no browser UI, so hub.mintUiAddress answers that there is none.
const hubServer = await claim?.serve({
  dispatcher: host.dispatcher,
  hub: host.hub,
  version: APP_VERSION,
  uiUrl: null,
})
if (hubServer) {
  host.setHubControl({
    hello: () => ({ hubId: hubServer.info.hubId, version: APP_VERSION, uiUrl: null }),
    mintUiAddress: () => {
      throw new Error('the desktop app serves no browser UI')
    },
    openUi: async () => {
      throw new Error('the desktop app serves no browser UI')
    },
  })
}

app.on('second-instance', () => {
  const window = BrowserWindow.getAllWindows()[0]
  const steps = secondInstanceSteps({
    exists: window !== undefined,
    minimized: window?.isMinimized() ?? false,
    visible: window?.isVisible() ?? false,
  })
  for (const step of steps) {
    if (step === 'create') createMainWindow().focus()
    else if (step === 'restore') window?.restore()
    else if (step === 'show') window?.show()
    else window?.focus()
  }
})

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

/** One approval notification, its click opening the inbox and its buttons answering as the person. */
function showApprovalNotification(window: BrowserWindow, approvalId: string, note: ApprovalNotice): void {
  const notification = new Notification({
    title: note.title,
    body: note.body,
    actions: note.actions.map((action) => ({ type: 'button' as const, text: action.title })),
  })
  notification.on('click', () => {
    window.show()
    window.focus()
    void window.webContents.executeJavaScript("location.hash = '#/approvals'")
  })
  // A button on a notification is the person answering, as a click on the card would be.
  notification.on('action', (_event, index) => {
    const action = note.actions[index]?.action
    if (!action) return
    void host.dispatcher.dispatch(
      {
        kind: 'request',
        id: `notification-${approvalId}`,
        method: 'approvals.answer',
        params: { id: approvalId, answer: { kind: action } },
      },
      {
        connectionId: 'electron-notification',
        role: 'ui',
        transport: 'electron-ipc',
        signal: new AbortController().signal,
      },
    )
  })
  notification.show()
}

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Shellgate',
    icon: join(app.getAppPath(), 'resources', 'icon.png'),
    show: false,
    webPreferences: secureWebPreferences(preloadPath),
  })
  const detach = attachElectronTransport(window.webContents, host.dispatcher, host.hub)
  const stopNotifying = host.hub.subscribe((event) => {
    if (event.name !== 'approvals.requested' || !Notification.isSupported()) return
    const approval = event.payload as { id: string; sessionId: string; command: string; cwd: string }
    const session = host.core.sessions.list().find((s) => s.id === approval.sessionId)
    const input = {
      ...approval,
      agent: session?.agent ? [session.agent.name, session.agent.version].filter(Boolean).join(' ') : null,
    }
    const note = approvalNotification(input, window.isFocused(), process.platform)
    if (note) showApprovalNotification(window, approval.id, note)
    if (!waitsOnHook(undefined, session?.channels ?? [])) return
    // A hook's client gives up on its own clock: a second notice before it does.
    const timer = setTimeout(() => {
      const stillPending = host.core.approvals.list().some((pending) => pending.id === approval.id)
      if (!stillPending || window.isDestroyed() || window.isFocused()) return
      showApprovalNotification(
        window,
        approval.id,
        stillWaitingNotice(input, notificationButtonsOn(process.platform)),
      )
    }, HOOK_WAIT_NOTICE_MS)
    window.once('closed', () => clearTimeout(timer))
  })
  window.on('closed', () => {
    detach()
    stopNotifying()
  })
  window.once('ready-to-show', () => window.show())
  void window.loadURL(`${APP_ORIGIN}/index.html`)
  return window
}

// The dock or taskbar badge counts the approvals waiting (macOS, and Linux launchers that show one).
host.hub.subscribe((event) => {
  if (event.name === 'approvals.requested' || event.name === 'approvals.resolved')
    app.setBadgeCount(host.core.approvals.list().length)
})

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
  void Promise.resolve(hubServer?.close())
    .then(() => host.core.dispose())
    .finally(() => app.exit(0))
})
