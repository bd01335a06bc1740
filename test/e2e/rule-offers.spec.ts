import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ApprovalsPage } from './pages/approvals-page'
import { startMcpAgent } from './support/mcp-agent'
import { expect, test } from './support/fixtures'

/**
 * Issue 22.8's desk half: after the person allowed one command shape three times, the inbox offers
 * the rule, editable, its scope shown; saved as edited, the next command of that shape asks nobody.
 */
test('three Allow once of touch offer a rule; edited and saved for this workspace, the fourth runs with no card', async ({
  appPage,
  serve,
}) => {
  const agent = await startMcpAgent(serve, { name: 'claude-code', version: '2.1.332', folder: 'api' })
  try {
    const approvals = new ApprovalsPage(appPage)
    const offers = approvals.screen().getByRole('region', { name: 'Rules you could save' })
    for (const n of [1, 2, 3]) {
      await expect(offers).toHaveCount(0)
      const call = agent.bash(`touch offer-${n}`)
      await approvals.card(`touch offer-${n}`)
      await approvals.pressShortcut('1')
      expect((await call).isError).toBe(false)
    }
    const offer = offers.getByRole('form', { name: 'Save a rule for touch:*?' })
    await expect(offer).toBeVisible()
    await expect(offer.getByRole('list', { name: 'Commands it would have allowed' })).toContainText(
      'touch offer-3',
    )
    // The scope is shown, this workspace on this machine by default; the rule is edited first.
    await expect(offer.getByRole('radio', { checked: true })).toHaveAccessibleName(/This workspace/)
    await offer.getByLabel('Rule').fill('touch offer-*')
    await offer.getByRole('button', { name: 'Save rule' }).click()
    await expect(offers).toHaveCount(0)

    expect(await agent.bash('touch offer-4 && echo no card')).toEqual({ text: 'no card', isError: false })
    expect(existsSync(join(agent.workspace, 'offer-4'))).toBe(true)
    // The edit counted: another touch still asks.
    const other = agent.bash('touch elsewhere')
    await approvals.card('touch elsewhere')
    await approvals.pressShortcut('3')
    expect((await other).isError).toBe(true)
  } finally {
    await agent.close()
  }
})
