import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ApprovalsPage } from './pages/approvals-page'
import { SettingsPage } from './pages/settings-page'
import { expect, test } from './support/fixtures'

// The MCP SDK's own client runs the built `shellgate mcp`, which finds the hub `serve` started.
test('an MCP agent’s command shows a card naming the agent; Allow once returns its output to the agent', async ({
  appPage,
  serve,
}) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve('bin/shellgate.js'), 'mcp'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: serve.home,
      SHELLGATE_HOME: serve.home,
      SHELLGATE_NO_OPEN: '1',
      SHELLGATE_MCP_DEADLINE_MS: '40000',
    },
    cwd: serve.workspace,
    stderr: 'pipe',
  })
  const client = new Client({ name: 'e2e-agent', version: '3.4.5' })
  await client.connect(transport)
  try {
    const call = client.callTool(
      { name: 'bash', arguments: { command: 'touch from-mcp && echo made by the agent' } },
      undefined,
      { timeout: 50_000 },
    )
    const approvals = new ApprovalsPage(appPage)
    const card = await approvals.card('touch from-mcp && echo made by the agent')
    await expect(card.root.getByText('e2e-agent 3.4.5', { exact: true })).toBeVisible()
    await expect(card.root.getByText(serve.workspace).first()).toBeVisible()
    await card.allowOnce()
    const result = await call
    expect(result.isError).toBe(false)
    expect((result.content as Array<{ text: string }>)[0]?.text).toBe('made by the agent')

    // Settings → Agents: the agent is listed as connected now, with the one-command setup to copy.
    const settings = new SettingsPage(appPage)
    await settings.open('Agents')
    const row = appPage.getByTestId('agent-row').filter({ hasText: 'e2e-agent 3.4.5' })
    await expect(row.locator('[data-field="connected"]')).toHaveText('connected now')
    await expect(appPage.getByRole('button', { name: 'Copy Claude Code command' })).toBeVisible()
  } finally {
    await client.close()
  }
})
