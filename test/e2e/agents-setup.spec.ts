import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { SettingsPage } from './pages/settings-page'
import { CLI, removeDirs, startServe } from './support/browser-mode-server'
import { expect, test } from './support/fixtures'

const run = promisify(execFile)

/**
 * Issue 22.1's desk half: Settings → Agents says per client what `shellgate doctor` says, from the
 * person's own home (a temp one here): Claude Code after `connect --write`, Codex not yet.
 */
test('Settings → Agents: Claude Code connected after connect --write (files, command, MCP answering, hook); Codex not, with its fix', async ({
  debianChromium,
}) => {
  const personHome = await mkdtemp(join(tmpdir(), 'shellgate-e2e-person-'))
  // No shellgate on this PATH: connect writes this install's absolute command, which must start.
  const env = { PATH: '/usr/bin:/bin', HOME: personHome }
  const serve = await startServe({ env })
  const context = await debianChromium.newContext()
  try {
    const connected = await run(process.execPath, [CLI, 'connect', 'claude-code', '--write'], {
      env: { ...env, SHELLGATE_HOME: serve.home },
      cwd: serve.workspace,
      timeout: 120_000,
    })
    expect(connected.stdout).toContain('written')

    const page = await context.newPage()
    await page.goto(serve.url)
    const settings = new SettingsPage(page)
    await settings.open('Agents')
    const claude = page
      .getByTestId('agent-status')
      .filter({ has: page.getByRole('heading', { name: /^Claude Code/ }) })
    await expect(claude.locator('[data-field="configured"]')).toHaveText('configured', { timeout: 60_000 })
    await expect(claude.locator('[data-field="file-mcp"]')).toContainText('configured')
    await expect(claude.locator('[data-field="file-hook"]')).toContainText('configured')
    await expect(claude.locator('[data-field="command"]')).toHaveAttribute('data-ok', 'yes')
    await expect(claude.locator('[data-field="mcp"]')).toHaveAttribute('data-ok', 'yes')
    await expect(claude.locator('[data-field="mcp"]')).toContainText('task_output')
    await expect(claude.locator('[data-field="hook"]')).toHaveAttribute('data-ok', 'yes')
    await expect(claude).not.toContainText('To fix:')

    const codex = page
      .getByTestId('agent-status')
      .filter({ has: page.getByRole('heading', { name: /^Codex/ }) })
    await expect(codex.locator('[data-field="configured"]')).toHaveText('not configured')
    await expect(codex).toContainText('To fix: shellgate connect codex --write')
  } finally {
    await context.close()
    await serve.stop()
    await removeDirs(serve.workspace, serve.home, personHome)
  }
})
