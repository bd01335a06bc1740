import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { AppPage } from './pages/app-page'
import { ApprovalsPage } from './pages/approvals-page'
import { SettingsPage } from './pages/settings-page'
import { expect, test } from './support/fixtures'

/** Issue 22.7, words and layout, as the person reads them in Debian's Chromium. */

test('the invalid-settings banner goes once the file is fixed, even back to what it was', async ({
  appPage,
  serve,
}) => {
  const settings = new SettingsPage(appPage)
  const file = join(serve.home, 'settings.json')
  const good = JSON.stringify({ permissions: { mode: 'plan' } })
  await writeFile(file, good)
  await expect.poll(() => settings.mode()).toBe('plan')
  await writeFile(file, '{ "permissions": { "mode": "plan" ')
  await expect(settings.warningBanner()).toContainText('settings.json')
  await expect(settings.warningBanner()).toContainText('the last good settings stay in force')
  // Said once (the snapshot's warning), not also as a notice that would outlive the fix.
  await expect(settings.warningBanner().getByRole('listitem')).toHaveCount(1)
  await writeFile(file, good)
  await expect(settings.warningBanner()).toHaveCount(0)
})

test('a card says the real reason first: no "can change files" for wait, echo and sleep', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  const approvals = new ApprovalsPage(appPage)
  for (const command of ['sleep 1 & wait', 'while true; do echo hi; sleep 1; done', 'touch made']) {
    await app.session.runCommand(command)
    const card = await approvals.card(command)
    const why = await card.why()
    expect(why).toMatch(/^Needs your approval: /)
    if (command !== 'touch made') expect(why).not.toMatch(/can change files|this command/)
    // The first thing the card says is why.
    expect(await card.root.evaluate((el) => el.firstElementChild?.getAttribute('aria-label'))).toBe(
      'Why approval is needed',
    )
    await card.deny()
  }
})

test('an inline card repeats neither the reason nor the description its call card shows', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  await app.session.runCommand('touch described', { description: 'Make the marker file' })
  const call = app.session.call('touch described')
  await call.waitForStatus('waiting_for_approval')
  await expect(call.inlineApproval().root).toBeVisible()
  const text = (await call.root.textContent()) ?? ''
  expect(text.split('Make the marker file')).toHaveLength(2)
  expect(text.split('Needs your approval:')).toHaveLength(2)
  await call.inlineApproval().deny()
})

test('Settings → Environment says what was sealed at entry first, and no empty "Sealed keys (0)"', async ({
  appPage,
}) => {
  await new SettingsPage(appPage).open('Environment')
  const panel = appPage.getByRole('tabpanel')
  await expect(panel.getByTestId('environment-facts')).toBeVisible()
  await expect(panel).not.toContainText('Sealed keys (0)')
  const headings = await panel.locator('h3').allTextContents()
  const entry = headings.findIndex((h) => h.startsWith('Sealed at entry'))
  const shell = headings.findIndex((h) => h.startsWith('From your login shell'))
  expect(entry).toBeGreaterThanOrEqual(0)
  expect(entry).toBeLessThan(shell)
})

/** How far the audit table reaches past its panel, or hides to the side behind a scroll bar (px). */
async function auditOverflow(page: Page): Promise<number> {
  return page.getByRole('table', { name: 'Audit log' }).evaluate((table) => {
    const panel = table.closest('.panel') as HTMLElement
    const scroller = table.parentElement as HTMLElement
    return Math.max(
      table.getBoundingClientRect().right - panel.getBoundingClientRect().right,
      table.scrollWidth - table.clientWidth,
      scroller.scrollWidth - scroller.clientWidth,
    )
  })
}

test('the audit table fits its panel at 390, 700 and 1280 px, long commands and rule files included', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  await app.settings.setMode('yolo')
  const long = `echo ${'a-very-long-argument-without-spaces-'.repeat(5)}`
  await app.session.runCommand(long)
  await app.session.call(long).waitForStatus('completed')
  for (const width of [1280, 700, 390]) {
    await appPage.setViewportSize({ width, height: 900 })
    await app.settings.open('Audit')
    await expect(app.settings.panel().getByRole('table', { name: 'Audit log' })).toContainText('a-very-long')
    expect(await auditOverflow(appPage), `at ${width} px`).toBeLessThanOrEqual(0)
  }
  // Who decided, in words.
  await expect(app.settings.panel().getByRole('table', { name: 'Audit log' })).toContainText(
    'Allowed: the mode',
  )
})

test('the yolo question is a dialog over the window, not squeezed into the sidebar; Cancel has the focus', async ({
  appPage,
}) => {
  await appPage.setViewportSize({ width: 1280, height: 800 })
  const mode = appPage.getByRole('group', { name: 'Mode' })
  await mode.getByRole('button', { name: 'yolo' }).click()
  const dialog = appPage.getByRole('dialog', { name: 'Switch to yolo?' })
  await expect(dialog).toBeVisible()
  const nav = await appPage.locator('.app-nav').boundingBox()
  const box = await dialog.boundingBox()
  expect(box && nav && box.width > nav.width && box.x > nav.x + nav.width).toBe(true)
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await appPage.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(mode.getByRole('button', { name: 'build', pressed: true })).toBeVisible()
})
