import { _electron as electron, expect, test } from '@playwright/test'
import { findElectronBinary } from '../../scripts/electron-binary'
import { AppPage } from './pages/app-page'
import { packageVersion } from './support/fixtures'

const binary = findElectronBinary(process.cwd())

// The same page objects as browser mode, through Electron's own window.
test.describe('Electron app', () => {
  test.skip(!binary.found, `Electron binary not installed here: ${binary.found ? '' : binary.reason}`)

  test('loads over app:// with the secure bridge and shows About', async () => {
    const app = await electron.launch({ executablePath: binary.found ? binary.path : '', args: ['.'] })
    const window = await app.firstWindow()
    expect(window.url()).toMatch(/^app:\/\/shellgate\//)
    const page = new AppPage(window)
    const facts = await page.aboutFacts()
    expect(facts.appVersion).toBe(packageVersion)
    expect(facts.transport).toBe('electron-ipc')
    expect(facts.electronVersion).not.toBe('browser mode')
    const bridge = await window.evaluate(() =>
      Object.keys((window as unknown as { shellgate: object }).shellgate).sort(),
    )
    expect(bridge).toEqual(['onEvent', 'request'])
    expect(await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe(
      'undefined',
    )
    await app.close()
  })
})
