import { readFileSync } from 'node:fs'
import { test as base, chromium, expect, type Browser, type Page } from '@playwright/test'
import { AppPage } from '../pages/app-page'
import { type ServeProcess, removeDirs, startServe } from './browser-mode-server'
import { chromiumArgs, chromiumPath } from './chromium'

export const packageVersion: string = JSON.parse(readFileSync('package.json', 'utf8')).version

interface BrowserModeFixtures {
  serve: ServeProcess
  appPage: Page
  app: AppPage
}

interface WorkerFixtures {
  debianChromium: Browser
}

/** Browser-mode launcher: a real `shellgate serve` and Debian's Chromium, fresh for each test. */
export const test = base.extend<BrowserModeFixtures, WorkerFixtures>({
  debianChromium: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a destructured object.
    async ({}, use) => {
      const browser = await chromium.launch({
        executablePath: chromiumPath(),
        args: chromiumArgs(),
        headless: true,
      })
      await use(browser)
      await browser.close()
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a destructured object.
  serve: async ({}, use) => {
    const serve = await startServe()
    await use(serve)
    await serve.stop()
    await removeDirs(serve.workspace, serve.home)
  },
  appPage: async ({ debianChromium, serve }, use) => {
    const context = await debianChromium.newContext()
    const page = await context.newPage()
    await page.goto(serve.url)
    // goto returns at the load event, while the one-time code is still being traded for the key
    // (it has already left the address bar). A reload then would find neither code nor key and
    // show "This page has not logged in". The nav shows once the key opened the socket and main
    // answered over it, so each test starts from a logged-in page.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await use(page)
    await context.close()
  },
  app: async ({ appPage }, use) => {
    await use(new AppPage(appPage))
  },
})

export { expect } from '@playwright/test'
