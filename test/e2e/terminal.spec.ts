import { get } from 'node:http'
import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ApprovalsPage } from './pages/approvals-page'
import { TasksPage } from './pages/tasks-page'
import { TerminalView } from './pages/terminal-view'
import type { ServeProcess } from './support/browser-mode-server'
import { expect, test } from './support/fixtures'

/** The MCP SDK's own client on the built `shellgate mcp`, finding the hub `serve` started. */
async function mcpAgent(serve: ServeProcess): Promise<Client> {
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
  return client
}

const structured = (result: unknown) =>
  (result as { structuredContent: Record<string, unknown> }).structuredContent
const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]?.text ?? ''

function fetchText(port: number): Promise<string> {
  return new Promise((done) => {
    get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8')
      })
      response.on('end', () => done(body))
    }).on('error', (error: NodeJS.ErrnoException) => done(`error ${error.code}`))
  })
}

test('python3 -i driven by the agent and by the person: the card says so, the terminal shows both, the log tells them apart', async ({
  appPage,
  serve,
}) => {
  const agent = await mcpAgent(serve)
  try {
    const started = agent.callTool(
      { name: 'bash', arguments: { command: 'python3 -i -q', tty: true, wait_for: '>>> $' } },
      undefined,
      { timeout: 50_000 },
    )
    const card = await new ApprovalsPage(appPage).card('python3 -i -q')
    await expect(
      card.root.getByText(/lets the agent type into python3 \(an interpreter\) for as long as it runs/),
    ).toBeVisible()
    await card.allowOnce()
    const result = await started
    const taskId = structured(result).taskId as string
    expect(text(result)).toContain('Ready')
    await agent.callTool({ name: 'task_input', arguments: { task_id: taskId, text: 'x = 40\n' } })

    const row = await new TasksPage(appPage).row('python3 -i -q')
    const terminal = await TerminalView.open(row)
    await terminal.waitForText(/^>>> x = 40\n>>>$/m)
    await terminal.type('print(x + 2)\n')
    await terminal.waitForText(/^>>> print\(x \+ 2\)\n42\n>>>$/m)

    // The agent reads what the person's line printed, from its own cursor.
    const read = await agent.callTool({
      name: 'task_output',
      arguments: { task_id: taskId, since: 0, wait_for: '^42$' },
    })
    expect((structured(read).task as { matched: string }).matched).toBe('42')

    await expect(terminal.inputs()).toHaveCount(2)
    await expect(terminal.inputs().nth(0)).toHaveAttribute('data-by', 'agent')
    await expect(terminal.inputs().nth(0)).toContainText('Agent')
    await expect(terminal.inputs().nth(0)).toContainText('x = 40⏎')
    await expect(terminal.inputs().nth(1)).toHaveAttribute('data-by', 'person')
    await expect(terminal.inputs().nth(1)).toContainText('print(x + 2)⏎')
  } finally {
    await agent.close()
  }
})

test('a password typed in the terminal shows as hidden in the log, never as text', async ({
  appPage,
  serve,
}) => {
  const agent = await mcpAgent(serve)
  try {
    const command = `python3 -c 'import getpass; p = getpass.getpass("Password: "); print("length", len(p))'`
    const started = agent.callTool(
      { name: 'bash', arguments: { command, tty: true, wait_for: 'Password: ' } },
      undefined,
      {
        timeout: 50_000,
      },
    )
    await (await new ApprovalsPage(appPage).card(command)).allowOnce()
    await started
    const row = await new TasksPage(appPage).row(command)
    const terminal = await TerminalView.open(row)
    await terminal.waitForText(/^Password:$/m)
    await terminal.type('opensesame\n')
    await terminal.waitForText(/^length 10$/m)
    await expect(terminal.inputs().locator('[data-field="hidden-input"]').first()).toContainText('hidden')
    await expect(row.root).not.toContainText('opensesame')
  } finally {
    await agent.close()
  }
})

test('a dev server is reached from the host only after the person opens its port', async ({
  appPage,
  serve,
}) => {
  const agent = await mcpAgent(serve)
  try {
    const command = `node -e "const s = require('http').createServer((q, r) => r.end('served from the sandbox')); s.listen(0, '127.0.0.1', () => console.log('listening on', s.address().port))"`
    const started = agent.callTool(
      { name: 'bash', arguments: { command, wait_for: 'listening on \\d+' } },
      undefined,
      { timeout: 50_000 },
    )
    await (await new ApprovalsPage(appPage).card(command)).allowOnce()
    const answer = text(await started)
    const port = Number(/listening on (\d+)/.exec(answer)?.[1])
    expect(port, answer).toBeGreaterThan(0)
    expect(await fetchText(port)).toBe('error ECONNREFUSED')

    const row = await new TasksPage(appPage).row(command)
    const open = row.root.getByRole('button', { name: `Open 127.0.0.1:${port}` })
    await expect(open).toBeVisible({ timeout: 15_000 })
    expect(await fetchText(port)).toBe('error ECONNREFUSED')
    await open.click()
    const link = row.root.getByRole('link', { name: /^http:\/\/127\.0\.0\.1:\d+$/ })
    await expect(link).toBeVisible()
    const hostPort = Number(/:(\d+)$/.exec((await link.textContent()) ?? '')?.[1])
    expect(await fetchText(hostPort)).toBe('served from the sandbox')
    await row.root.getByRole('button', { name: 'Close' }).click()
    await expect(open).toBeVisible()
    expect(await fetchText(hostPort)).toBe('error ECONNREFUSED')
  } finally {
    await agent.close()
  }
})
