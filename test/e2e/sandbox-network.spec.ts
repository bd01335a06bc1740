import { readFileSync } from 'node:fs'
import { SettingsPage } from './pages/settings-page'
import { expect, test } from './support/fixtures'

/** Issue 19.3 as the person sees it: this workspace's allowed ports, kept on this machine. */
test("Settings → Sandbox: browser mode's own port is refused next to its field; a database port is saved on this machine", async ({
  appPage,
  serve,
}) => {
  const settings = new SettingsPage(appPage)
  await settings.open('Sandbox')
  const form = settings.panel().getByRole('form', { name: "This workspace's sandbox network" })
  const ports = form.getByLabel('Allowed ports on this machine')
  await ports.fill(`5432, ${serve.port}`)
  await form.getByRole('button', { name: "Save this workspace's network" }).click()
  // Main checks each port against what Shellgate itself listens on: the page's own port.
  await expect
    .poll(() => settings.fieldError('Allowed ports on this machine'))
    .toBe(
      `127.0.0.1:${serve.port} is Shellgate's own (its browser-mode page or another of its servers); it can never be allowed`,
    )
  await ports.fill('5432')
  await form.getByRole('button', { name: "Save this workspace's network" }).click()
  await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  const file = (await form.locator('p.muted').first().textContent())?.split('kept in ')[1]?.trim() ?? ''
  expect(file.startsWith(`${serve.home}/workspaces/`)).toBe(true)
  expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ allowedPorts: [5432] })
})
