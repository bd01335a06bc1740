import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page, Worker } from '@playwright/test'
import { ApprovalsPage } from './pages/approvals-page'
import { SettingsPage } from './pages/settings-page'
import { claudeCodeHook } from './support/agent-hook'
import { startMcpAgent } from './support/mcp-agent'
import { expect, test } from './support/fixtures'

/**
 * Issue 22.6, noticed at once, in browser mode: permission asked only from a visible button, a
 * notification (through the page's service worker) for a new approval while the tab is not being
 * looked at, its Allow once button answering the card, and the count on the tab's icon.
 */

interface ShownNotification {
  title: string
  body: string
  tag: string
  actions: string[]
}

async function shown(worker: Worker): Promise<ShownNotification[]> {
  return worker.evaluate(async () => {
    const registration = (self as unknown as { registration: ServiceWorkerRegistration }).registration
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      actions: ((n as unknown as { actions?: Array<{ action: string }> }).actions ?? []).map((a) => a.action),
    }))
  })
}

/** Another tab in front, with the page's focus emulation off: hasFocus() is then the real answer, false. */
async function lookAway(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false })
  const other = await context.newPage()
  await other.bringToFront()
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false)
}

test('notifications are asked for only from a button; a new approval in a background tab notifies with Allow once and Deny, and Allow once answers it', async ({
  debianChromium,
  serve,
}) => {
  const context = await debianChromium.newContext()
  const agent = await startMcpAgent(serve, { name: 'claude-code', version: '2.1.332', folder: 'api' })
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    const approvals = new ApprovalsPage(page)
    await approvals.open()
    // Loading asked nothing: the browser has not been asked, and the inbox offers the button.
    expect(await page.evaluate(() => Notification.permission)).toBe('default')
    const turnOn = page.getByRole('button', { name: 'Turn on notifications' })
    await expect(turnOn).toBeVisible()
    // The test browser grants what the page asks for; the page asks when the button is clicked.
    await context.grantPermissions(['notifications'], { origin: serve.origin })
    await turnOn.click()
    await expect(turnOn).toBeHidden()
    await new SettingsPage(page).open('Notifications')
    await expect(page.locator('[data-field="notification-state"]')).toContainText('Notifications are on')
    await expect.poll(() => context.serviceWorkers().length).toBe(1)
    const worker = context.serviceWorkers()[0] as Worker

    await lookAway(context, page)
    const call = agent.bash('touch notified && echo allowed from the notification')
    await expect.poll(async () => (await shown(worker)).length).toBe(1)
    const [notification] = await shown(worker)
    expect(notification).toMatchObject({
      title: 'claude-code 2.1.332 needs your approval',
      actions: ['allow_once', 'deny'],
    })
    expect(notification?.body).toBe(
      `touch notified && echo allowed from the notification\nin ${agent.workspace}`,
    )
    // The tab's icon counts it.
    const icon = page.locator('link[rel="icon"]')
    await expect(icon).toHaveAttribute('data-count', '1')
    await expect(icon).toHaveAttribute('href', /^data:image\/svg\+xml,/)

    // The person clicks "Allow once" on the notification: the worker's own click handler runs.
    await worker.evaluate(async () => {
      // Service-worker globals, which the page's DOM types do not describe.
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration
        dispatchEvent(event: Event): boolean
        NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event
      }
      const [note] = await scope.registration.getNotifications()
      if (!note) throw new Error('no notification to click')
      scope.dispatchEvent(
        new scope.NotificationEvent('notificationclick', { notification: note, action: 'allow_once' }),
      )
    })
    expect(await call).toEqual({ text: 'allowed from the notification', isError: false })
    expect(existsSync(join(agent.workspace, 'notified'))).toBe(true)
    await expect(icon).toHaveAttribute('data-count', '0')
    await expect(icon).toHaveAttribute('href', './favicon.svg')
  } finally {
    await agent.close()
    await context.close()
  }
})

test('a long or multi-line command gets no buttons on its notification, only the way to its card', async ({
  debianChromium,
  serve,
}) => {
  const context = await debianChromium.newContext()
  await context.grantPermissions(['notifications'], { origin: serve.origin })
  const agent = await startMcpAgent(serve, { name: 'codex', version: '0.171.0', folder: 'web' })
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    await new ApprovalsPage(page).open()
    await expect.poll(() => context.serviceWorkers().length).toBe(1)
    const worker = context.serviceWorkers()[0] as Worker
    await lookAway(context, page)
    const command = 'echo looks harmless\nrm -rf ./build'
    const call = agent.bash(command)
    await expect.poll(async () => (await shown(worker)).length).toBe(1)
    const [notification] = await shown(worker)
    expect(notification?.actions).toEqual([])
    expect(notification?.body).toContain('Open Shellgate to read it whole and answer.')
    const card = await new ApprovalsPage(page).card(command)
    await card.deny()
    expect((await call).isError).toBe(true)
  } finally {
    await agent.close()
    await context.close()
  }
})

test("a hook's card still unanswered after 30 s gets a second notification that says its client may give up", async ({
  debianChromium,
  serve,
}) => {
  // The page's clock is Playwright's: the product's own timer, with its real 30 s, fires when the
  // clock is moved past it, instead of the run waiting half a minute.
  const context = await debianChromium.newContext()
  try {
    await context.clock.install()
    const page = await context.newPage()
    await page.goto(serve.url)
    const approvals = new ApprovalsPage(page)
    await approvals.open()
    await context.grantPermissions(['notifications'], { origin: serve.origin })
    await page.getByRole('button', { name: 'Turn on notifications' }).click()
    await expect.poll(() => context.serviceWorkers().length).toBe(1)
    const worker = context.serviceWorkers()[0] as Worker
    await lookAway(context, page)

    const command = 'touch asked-by-hook'
    const answer = claudeCodeHook(serve, {
      sessionId: 'hook-wait-run',
      cwd: serve.workspace,
      command,
      description: 'a slow answer',
    })
    await expect
      .poll(async () => (await shown(worker)).map((n) => n.title), { timeout: 20_000 })
      .toEqual(['claude-code needs your approval'])
    // Not sooner: 20 s after the card (and the few the page took to show it), only the first notice.
    await context.clock.fastForward('00:20')
    expect((await shown(worker)).map((n) => n.title)).toEqual(['claude-code needs your approval'])
    await context.clock.fastForward('00:11')
    await expect
      .poll(async () => (await shown(worker)).map((n) => n.title), { timeout: 20_000 })
      .toEqual(['claude-code has waited 30 s for your answer'])
    const [again] = await shown(worker)
    expect(again?.body).toBe(
      `${command}\nin ${serve.workspace}\nIts client may give up soon and fall back to its own prompt.`,
    )
    expect(again?.actions).toEqual(['allow_once', 'deny'])

    await page.bringToFront()
    await approvals.pressShortcut('3')
    expect((await answer).hookSpecificOutput?.permissionDecision).toBe('deny')
    expect(existsSync(join(serve.workspace, 'asked-by-hook'))).toBe(false)
  } finally {
    await context.close()
  }
})
