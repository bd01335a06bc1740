import { describe, expect, it } from 'vitest'
import { isAllowedNavigation, windowOpenDecision } from '../../../src/main/security/navigation-policy'
import { isPermissionGranted } from '../../../src/main/security/permission-policy'
import { isTrustedSender } from '../../../src/main/security/trusted-ipc-sender'
import { secureWebPreferences } from '../../../src/main/security/web-preferences'

describe('isTrustedSender', () => {
  const trusted = new Set([7])
  it.each([
    [{ webContentsId: 7, frame: { url: 'app://shellgate/index.html', isMainFrame: true } }, true],
    [{ webContentsId: 7, frame: { url: 'app://shellgate/', isMainFrame: true } }, true],
    [{ webContentsId: 8, frame: { url: 'app://shellgate/index.html', isMainFrame: true } }, false],
    [{ webContentsId: 7, frame: { url: 'app://shellgate/index.html', isMainFrame: false } }, false],
    [{ webContentsId: 7, frame: null }, false],
    [{ webContentsId: 7, frame: { url: 'app://evil/index.html', isMainFrame: true } }, false],
    [{ webContentsId: 7, frame: { url: 'file:///index.html', isMainFrame: true } }, false],
    [{ webContentsId: 7, frame: { url: 'https://shellgate/', isMainFrame: true } }, false],
    [{ webContentsId: 7, frame: { url: 'http://127.0.0.1:5173/', isMainFrame: true } }, false],
    [{ webContentsId: 7, frame: { url: 'not a url', isMainFrame: true } }, false],
  ])('%j → %s', (sender, expected) => {
    expect(isTrustedSender(sender, trusted)).toBe(expected)
  })
})

describe('isAllowedNavigation', () => {
  it.each([
    ['app://shellgate/index.html', true],
    ['app://shellgate/#/tasks', true],
    ['app://other/index.html', false],
    ['https://example.com/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>1</script>', false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isAllowedNavigation(url)).toBe(expected)
  })

  it('denies every window.open', () => {
    expect(windowOpenDecision()).toEqual({ action: 'deny' })
  })
})

describe('permission policy', () => {
  it.each([
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'clipboard-sanitized-write',
    'openExternal',
    'fullscreen',
    'hid',
    'serial',
    'usb',
  ])('denies %s', (permission) => {
    expect(isPermissionGranted(permission, 'app://shellgate')).toBe(false)
  })
})

describe('secureWebPreferences', () => {
  it('isolates, sandboxes and disables node and webview', () => {
    expect(secureWebPreferences('/x/preload.cjs')).toMatchObject({
      preload: '/x/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    })
  })
})
