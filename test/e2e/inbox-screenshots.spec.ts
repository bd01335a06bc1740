import { mkdir } from 'node:fs/promises'
import { ApprovalsPage } from './pages/approvals-page'
import { SessionPage } from './pages/session-page'
import { type McpAgent, startMcpAgent } from './support/mcp-agent'
import { expect, test } from './support/fixtures'

/**
 * The README's pictures of the inbox (issue 22's Done-when): cards from three real MCP clients and
 * the person, at 390, 700 and 1280 px, from this run. `npm run screenshots` writes them to
 * docs/screenshots (SHELLGATE_DOCS_SCREENSHOTS=1); every other run writes test-results/screens.
 */
const DOCS = process.env.SHELLGATE_DOCS_SCREENSHOTS === '1'
const OUT_DIR = DOCS ? 'docs/screenshots' : 'test-results/screens'

test('the inbox with cards from three agents, at 390, 700 and 1280 px', async ({ appPage, serve }) => {
  const agents: McpAgent[] = []
  const calls: Array<Promise<unknown>> = []
  try {
    const approvals = new ApprovalsPage(appPage)
    const asks = [
      {
        agent: { name: 'claude-code', version: '2.1.332', folder: 'api' },
        command: 'npm install --save-dev vitest',
      },
      {
        agent: { name: 'codex', version: '0.171.0', folder: 'web' },
        command: 'rm -rf dist && npm run build',
      },
      { agent: { name: 'gemini-cli', version: '0.61.0', folder: 'docs' }, command: 'sleep 2 & wait' },
    ]
    for (const ask of asks) {
      const agent = await startMcpAgent(serve, ask.agent)
      agents.push(agent)
      // Answered by closing the agents at the end; the result is not what this test looks at.
      calls.push(agent.bash(ask.command).catch(() => undefined))
      await approvals.card(ask.command)
    }
    await new SessionPage(appPage).runCommand('git commit -am "wip"')
    await approvals.card('git commit -am "wip"')
    await mkdir(OUT_DIR, { recursive: true })
    for (const width of [390, 700, 1280]) {
      await appPage.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await approvals.open()
      await expect(approvals.cards()).toHaveCount(4)
      await expect(approvals.keyTarget()).toHaveAttribute('data-keys-armed', '')
      for (const agent of agents) await expect(approvals.screen()).toContainText(agent.name)
      const overflow = await appPage.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, `at ${width} px`).toBeLessThanOrEqual(0)
      await appPage.screenshot({ path: `${OUT_DIR}/inbox-${width}.png`, fullPage: width !== 1280 })
    }
  } finally {
    await Promise.all(agents.map((agent) => agent.close()))
    await Promise.all(calls)
  }
})
