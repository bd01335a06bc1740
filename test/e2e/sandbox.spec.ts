import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ApprovalsPage } from './pages/approvals-page'
import { SessionPage } from './pages/session-page'
import { SettingsPage } from './pages/settings-page'
import { expect, test } from './support/fixtures'

/** Issue 12 as the person sees it: Settings → Sandbox, and the profile on the approval card. */

test('Settings → Sandbox shows the working bwrap, and a bad allowlist entry is refused next to its field', async ({
  appPage,
}) => {
  const settings = new SettingsPage(appPage)
  await settings.open('Sandbox')
  const panel = settings.panel()
  await expect(panel.locator('[data-field="backend"]')).toHaveText('bubblewrap (/usr/bin/bwrap)')
  await expect(panel.locator('[data-field="profile-read-only"]')).toHaveText('works')
  await expect(panel.locator('[data-field="profile-workspace-write"]')).toHaveText('works')
  await panel.getByLabel('Network for approved commands').selectOption('allowlist')
  await panel.getByLabel('Allowlist (one domain per line)').fill('registry.npmjs.org\nhttp://bad.example/')
  await panel.getByRole('button', { name: 'Save sandbox settings' }).click()
  // Main checks the entries: the error shows when its answer arrives, not when the click returns.
  await expect
    .poll(() => settings.fieldError('Allowlist (one domain per line)'))
    .toContain('"http://bad.example/" is not a domain')
  await panel.getByLabel('Allowlist (one domain per line)').fill('registry.npmjs.org')
  await panel.getByRole('button', { name: 'Save sandbox settings' }).click()
  await expect(panel.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await expect(panel.locator('[data-field="summary"]')).toContainText('network allowlist')
})

test('the card says workspace-write; "Allow once, unsandboxed" lets that one command write outside it', async ({
  appPage,
  serve,
}) => {
  // Outside the workspace and outside /tmp (every sandbox gets its own, empty /tmp).
  const outside = mkdtempSync('/var/tmp/shellgate-e2e-outside-')
  try {
    const session = new SessionPage(appPage)
    const approvals = new ApprovalsPage(appPage)

    const boxed = `touch ${outside}/boxed`
    await session.runCommand(boxed)
    let card = await approvals.card(boxed)
    await expect(card.root.locator('[data-field="sandbox-profile"]')).toHaveText(
      'workspace-write (writes only in the workspace; secrets hidden)',
    )
    await card.allowOnce()
    await session.open()
    await session.call(boxed).waitForStatus('failed')
    expect(await session.call(boxed).content()).toContain(
      `blocked by the sandbox: write outside the workspace (${outside}/boxed)`,
    )
    expect(existsSync(join(outside, 'boxed'))).toBe(false)

    const free = `touch ${outside}/free`
    await session.runCommand(free)
    card = await approvals.card(free)
    await card.root.getByRole('button', { name: 'Allow once, unsandboxed' }).click()
    await expect(card.root).toBeHidden()
    await session.open()
    await session.call(free).waitForStatus('completed')
    expect(existsSync(join(outside, 'free'))).toBe(true)
    // The audit line is written right after the call is published: wait for it, do not race it.
    const lastAudit = () =>
      JSON.parse(readFileSync(join(serve.home, 'audit.jsonl'), 'utf8').trim().split('\n').at(-1)!)
    await expect.poll(() => lastAudit().command).toBe(free)
    expect(lastAudit()).toMatchObject({ sandbox: 'off', unsandboxedByPerson: true })
  } finally {
    rmSync(outside, { recursive: true, force: true })
  }
})
