import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { findElectronBinary } from '../../scripts/electron-binary'
import { AppPage } from './pages/app-page'
import { removeDirs } from './support/browser-mode-server'
import { packageVersion } from './support/fixtures'

const binary = findElectronBinary(process.cwd())

// The same page objects as browser mode, through Electron's own window.
test.describe('Electron app', () => {
  test.skip(!binary.found, `Electron binary not installed here: ${binary.found ? '' : binary.reason}`)

  test('loads over app:// with the secure bridge, the CSP and About', async () => {
    // A temp workspace and data folder: the test never touches ~/.shellgate or the checkout.
    const workspace = await mkdtemp(join(tmpdir(), 'shellgate-electron-ws-'))
    const home = await mkdtemp(join(tmpdir(), 'shellgate-electron-home-'))
    const app = await electron.launch({
      executablePath: binary.found ? binary.path : '',
      args: [resolve('.')],
      cwd: workspace,
      env: { ...process.env, SHELLGATE_HOME: home } as Record<string, string>,
    })
    try {
      const window = await app.firstWindow()
      expect(window.url()).toMatch(/^app:\/\/shellgate\//)
      const page = new AppPage(window)
      const facts = await page.aboutFacts()
      expect(facts).toMatchObject({
        appVersion: packageVersion,
        transport: 'electron-ipc',
        dataDir: home,
        workspace,
      })
      expect(facts.electronVersion).not.toBe('browser mode')
      const bridge = await window.evaluate(() =>
        Object.keys((window as unknown as { shellgate: object }).shellgate).sort(),
      )
      expect(bridge).toEqual(['onEvent', 'request'])
      const globals = await window.evaluate(() => ({
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
      }))
      expect(globals).toEqual({ require: 'undefined', process: 'undefined' })
      const injected = await window.evaluate(() => {
        const script = document.createElement('script')
        script.textContent = 'window.__injected = true'
        document.body.appendChild(script)
        return (window as unknown as { __injected?: boolean }).__injected === true
      })
      expect(injected).toBe(false)
    } finally {
      await app.close()
      await removeDirs(workspace, home)
    }
  })
})
