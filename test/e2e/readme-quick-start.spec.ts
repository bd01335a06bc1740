import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { findElectronBinary } from '../../scripts/electron-binary'
import { SettingsPage } from './pages/settings-page'
import { expect, test } from './support/fixtures'
import { freshMachine, interrupt, runQuickStart } from './support/readme-quick-start'

const run = promisify(execFile)

// The real Claude Code, from the prefix .ci/run installs the pinned agent CLIs into (as
// test/unit/mcp/real-clis.ts finds it; that module speaks vitest, so the path is repeated here).
const CLIS_CACHE = process.env.SHELLGATE_TEST_CLIS_CACHE ?? join(homedir(), '.cache', 'shellgate-test-clis')
const CLAUDE_PIN = JSON.parse(readFileSync(resolve('test/fixtures/real-clis/versions.json'), 'utf8'))
  .claude as {
  package: string
  version: string
}
const claudeBinDir = join(CLIS_CACHE, 'node_modules', '.bin')
const claudeMissing = existsSync(join(claudeBinDir, 'claude'))
  ? null
  : `${CLAUDE_PIN.package}@${CLAUDE_PIN.version} is not in ${CLIS_CACHE}; run .ci/run or set SHELLGATE_TEST_INSTALL_CLIS=1 for a unit real-CLI test to install it`

// `npm start` opens the Electron window where its binary is installed; the desk this test drives
// is the browser mode it starts everywhere else (CI, and machines that cannot download Electron).
const electron = findElectronBinary(process.cwd())
const electronHere = electron.found
  ? `Electron's binary is installed here (${electron.path}), so \`npm start\` opens its window, not the browser-mode desk this test drives`
  : null

/**
 * Issue 22's first Done-when: the README's quick start, followed on a fresh machine with Claude
 * Code installed from npm, connects it with no other step, and the real `claude mcp list` reports
 * Shellgate connected. The commands are read out of README.md (see support/readme-quick-start.ts
 * for the two steps approximated and why); the desk `npm start` opens is checked in Chromium.
 */
test('the README quick start connects the real Claude Code on a fresh machine, and npm start opens the desk', async ({
  debianChromium,
}) => {
  test.skip(claudeMissing !== null, claudeMissing ?? '')
  test.skip(electronHere !== null, electronHere ?? '')
  test.setTimeout(180_000)
  const root = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-fresh-machine-')))
  const machine = await freshMachine(root, claudeBinDir)
  const context = await debianChromium.newContext()
  let app: Awaited<ReturnType<typeof runQuickStart>>['app'] = null
  try {
    const quickStart = await runQuickStart(machine, process.cwd())
    app = quickStart.app
    const said = (prefix: string) => {
      const step = quickStart.results.find((each) => each.command.startsWith(prefix))
      if (!step) throw new Error(`the README's quick start no longer runs \`${prefix} …\``)
      return step.output
    }
    // `shellgate` is a command on this machine's PATH now, and connect wrote it, not a clone path.
    expect(existsSync(join(machine.npmPrefix, 'bin', 'shellgate'))).toBe(true)
    expect(said('shellgate connect claude-code')).toContain('written')
    const claudeJson = JSON.parse(await readFile(join(machine.env.CLAUDE_CONFIG_DIR, '.claude.json'), 'utf8'))
    expect(claudeJson.mcpServers.shellgate).toMatchObject({ command: 'shellgate', args: ['mcp'] })
    const doctor = said('shellgate doctor')
    expect(doctor).toMatch(/^Claude Code \(claude-code\): configured$/m)
    expect(doctor).toMatch(/^ {2}command +ok +shellgate --version answered/m)
    expect(doctor).toMatch(/^ {2}hook +ok +runs shellgate hook claude-code$/m)

    if (!app) throw new Error("the README's quick start no longer says `npm start`")
    const address = /Shellgate UI: (\S+#code=\S+)/.exec(app.output())?.[1] as string
    const page = await context.newPage()
    await page.goto(address)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()

    // The real client, as the person would check it: Shellgate's MCP server starts and answers.
    const listed = await run('claude', ['mcp', 'list'], { cwd: root, env: machine.env, timeout: 60_000 })
    expect(listed.stdout).toMatch(/^shellgate: shellgate mcp - ✔ Connected$/m)

    // The desk says the same about Claude Code as the client did.
    const settings = new SettingsPage(page)
    await settings.open('Agents')
    const claude = page
      .getByTestId('agent-status')
      .filter({ has: page.getByRole('heading', { name: /^Claude Code/ }) })
    await expect(claude.locator('[data-field="configured"]')).toHaveText('configured', { timeout: 30_000 })
    await expect(claude.locator('[data-field="command"]')).toHaveAttribute('data-ok', 'yes')
    await expect(claude.locator('[data-field="mcp"]')).toHaveAttribute('data-ok', 'yes')
    await expect(claude.locator('[data-field="hook"]')).toHaveAttribute('data-ok', 'yes')
  } finally {
    await context.close()
    // Ctrl+C stops `npm start` and everything it started; nothing may be left to kill.
    const clean = app ? await interrupt(app.child) : true
    await rm(root, { recursive: true, force: true })
    expect(clean, '`npm start` left processes running after Ctrl+C').toBe(true)
  }
})
