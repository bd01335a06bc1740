import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { ApprovalsPage } from './pages/approvals-page'
import { SessionPage } from './pages/session-page'
import { SettingsPage } from './pages/settings-page'
import { TasksPage } from './pages/tasks-page'
import { CLI, removeDirs, startServe } from './support/browser-mode-server'
import { expect, test } from './support/fixtures'

/** The requests a page sends over its WebSocket, by method, in the order it sends them. */
function recordRequests(page: Page): { method: string }[] {
  const sent: { method: string }[] = []
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      try {
        const message = JSON.parse(String(payload)) as { kind?: string; method?: string }
        if (message.kind === 'request' && message.method) sent.push({ method: message.method })
      } catch {
        // Not one of our envelopes.
      }
    })
  })
  return sent
}

/**
 * Runs `action` and waits until the page has sent `method` after what was recorded so far. Frames
 * are reported in the order they were sent, so anything an earlier key press sent is recorded by
 * then: "nothing was sent" can be checked without waiting a fixed time.
 */
async function boundedBy(sent: { method: string }[], action: () => Promise<unknown>, method: string) {
  const from = sent.length
  await action()
  await expect.poll(() => sent.slice(from).some((request) => request.method === method)).toBe(true)
}

/**
 * Presses a digit key twice as one burst of input events, none waiting for the page's answer to
 * the one before: a fast double press. Two awaited presses are two round trips from this process,
 * and on a loaded machine the second could come long enough after the first that the next card
 * is armed (400 ms) and rightly takes it.
 */
async function doublePress(page: Page, digit: '1' | '2' | '3'): Promise<void> {
  const keyCode = digit.charCodeAt(0)
  const key = {
    key: digit,
    code: `Digit${digit}`,
    windowsVirtualKeyCode: keyCode,
    nativeVirtualKeyCode: keyCode,
  }
  const cdp = await page.context().newCDPSession(page)
  try {
    const down = { type: 'keyDown' as const, text: digit, unmodifiedText: digit, ...key }
    const up = { type: 'keyUp' as const, ...key }
    await Promise.all([down, up, down, up].map((event) => cdp.send('Input.dispatchKeyEvent', event)))
  } finally {
    await cdp.detach()
  }
}

/** A pid is gone when it no longer exists or is a zombie nobody will reap (PID 1 here reaps nothing). */
async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  return stat === '' || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true })
}

test('a read-only command runs with no card and shows its output', async ({ appPage, serve }) => {
  await writeFile(join(serve.workspace, 'hello.txt'), 'hello from the workspace\n')
  const session = new SessionPage(appPage)
  await session.runCommand('cat hello.txt', { description: 'Show the greeting' })
  const call = session.call('cat hello.txt')
  await call.waitForStatus('completed')
  expect(await call.content()).toBe('hello from the workspace')
  expect(await new ApprovalsPage(appPage).badgeCount()).toBe(0)
  await shoot(appPage, 'session')
})

test('a writer shows a card; Allow once runs it and the file exists', async ({ appPage, serve }) => {
  const session = new SessionPage(appPage)
  await session.runCommand('touch f')
  await session.call('touch f').waitForStatus('waiting_for_approval')
  expect(existsSync(join(serve.workspace, 'f'))).toBe(false)
  const approvals = new ApprovalsPage(appPage)
  await expect.poll(() => approvals.badgeCount()).toBe(1)
  const card = await approvals.card('touch f')
  expect(await card.actions()).toEqual([
    { name: 'Allow once', key: '1' },
    { name: 'Always allow', key: '2' },
    { name: 'Deny', key: '3' },
    { name: 'Deny with a message', key: '4' },
  ])
  // The card's first line says why, in the verdict's words.
  expect(await card.why()).toMatch(/^Needs your approval: touch \w/)
  await shoot(appPage, 'approvals')
  await card.allowOnce()
  await session.open()
  await session.call('touch f').waitForStatus('completed')
  expect(existsSync(join(serve.workspace, 'f'))).toBe(true)
  expect(await approvals.badgeCount()).toBe(0)
})

test('Always allow saves the rule; the same command then runs with no card; Settings lists it', async ({
  appPage,
  serve,
}) => {
  const session = new SessionPage(appPage)
  await session.runCommand('mkdir -p build/one')
  const card = await new ApprovalsPage(appPage).card('mkdir -p build/one')
  // The suggestion skips the option, so one rule covers every mkdir; saved as suggested.
  expect(await card.suggestedRule()).toBe('mkdir:*')
  await card.alwaysAllow(undefined, 'workspace')
  await session.open()
  await session.call('mkdir -p build/one').waitForStatus('completed')

  await session.runCommand('mkdir -p build/two')
  await session.call('mkdir -p build/two').waitForStatus('completed')
  expect(existsSync(join(serve.workspace, 'build', 'two'))).toBe(true)
  expect(await session.call('mkdir -p build/two').decision()).toContain('mkdir:*')

  const rules = await new SettingsPage(appPage).rules()
  expect(rules).toContainEqual(
    expect.objectContaining({ list: 'allow', rule: 'mkdir:*', scope: 'workspace' }),
  )
  await shoot(appPage, 'settings-permissions')
})

test('Deny with a message runs nothing and the message is the result', async ({ appPage, serve }) => {
  const session = new SessionPage(appPage)
  await session.runCommand('touch denied-file')
  const card = await new ApprovalsPage(appPage).card('touch denied-file')
  await card.deny('Not in this repository, please.')
  await session.open()
  const call = session.call('touch denied-file')
  await call.waitForStatus('denied')
  expect(await call.content()).toBe('Not in this repository, please.')
  expect(existsSync(join(serve.workspace, 'denied-file'))).toBe(false)
})

test('plan mode denies a writer without a card', async ({ appPage, serve }) => {
  await new SettingsPage(appPage).setMode('plan')
  const session = new SessionPage(appPage)
  await session.runCommand('touch planned')
  const call = session.call('touch planned')
  await call.waitForStatus('denied')
  expect(await call.content()).toContain('Permission denied')
  expect(existsSync(join(serve.workspace, 'planned'))).toBe(false)
  expect(await new ApprovalsPage(appPage).badgeCount()).toBe(0)
})

test('a long command moves to Tasks, streams live, and Stop leaves none of its processes', async ({
  appPage,
  serve,
}) => {
  await new SettingsPage(appPage).setMode('yolo')
  // The pids are checked on the host; inside the sandbox's PID namespace `$!` is another number.
  await new SettingsPage(appPage).setSandboxMode('off')
  const command =
    'for i in 1 2; do sleep 300 & echo $! >> pids; done; echo $$ >> pids; i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.1; done'
  const session = new SessionPage(appPage)
  await session.runCommand(command, { timeout: 1500 })
  const call = session.call(command)
  await call.waitForStatus('backgrounded', 20_000)
  expect(await call.content()).toContain('Command running in background with ID:')

  const tasks = new TasksPage(appPage)
  const row = await tasks.row(command)
  expect(await row.status()).toBe('running')
  const output = await row.output()
  await expect(output).toContainText(/tick \d+/)
  const first = Number(/tick (\d+)(?![\s\S]*tick)/.exec((await output.textContent()) ?? '')?.[1])
  await expect
    .poll(async () => Number(/tick (\d+)(?![\s\S]*tick)/.exec((await output.textContent()) ?? '')?.[1]), {
      message: 'the live tail follows new output',
    })
    .toBeGreaterThan(first)
  await shoot(appPage, 'tasks')

  const pids = (await readFile(join(serve.workspace, 'pids'), 'utf8')).trim().split('\n').map(Number)
  expect(pids).toHaveLength(3)
  await row.stop()
  expect(await row.status()).toBe('stopped')
  await expect
    .poll(async () => (await Promise.all(pids.map(isGone))).every(Boolean), { timeout: 10_000 })
    .toBe(true)
})

test('shell and mode changes survive a server restart', async ({ debianChromium }) => {
  const first = await startServe()
  const context = await debianChromium.newContext()
  try {
    let page = await context.newPage()
    await page.goto(first.url)
    let settings = new SettingsPage(page)
    await settings.setMode('plan')
    await settings.setShell('zsh')
    await first.stop()

    const second = await startServe({ workspace: first.workspace, home: first.home })
    try {
      page = await context.newPage()
      await page.goto(second.url)
      settings = new SettingsPage(page)
      expect(await settings.mode()).toBe('plan')
      expect(await settings.shellChoice()).toBe('zsh')
      const saved = JSON.parse(await readFile(join(first.home, 'settings.json'), 'utf8'))
      expect(saved).toMatchObject({ permissions: { mode: 'plan' }, shell: { kind: 'zsh' } })
      await shoot(page, 'settings-shell')
    } finally {
      await second.stop()
    }
  } finally {
    await context.close()
    await removeDirs(first.workspace, first.home)
  }
})

test('Settings → Environment lists the same sealed, dropped and withheld names as `shellgate env`, and lets a name through', async ({
  debianChromium,
}) => {
  const extra = {
    AWS_SECRET_ACCESS_KEY: 'e2e-aws-value',
    GH_TOKEN: 'e2e-gh-value',
    NODE_OPTIONS: '--no-deprecation',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    NODE_ENV: 'production',
  }
  const serve = await startServe({ env: extra })
  const context = await debianChromium.newContext()
  const cliEnv = () => {
    const run = spawnSync(process.execPath, [CLI, 'env', '--json'], {
      env: { ...process.env, ...extra, SHELLGATE_HOME: serve.home },
      cwd: serve.workspace,
    })
    expect(run.status, run.stderr.toString()).toBe(0)
    return JSON.parse(run.stdout.toString())
  }
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    const settings = new SettingsPage(page)
    const shown = await settings.environmentNames()
    const printed = cliEnv()
    expect(shown['Sealed at entry']).toEqual(printed.entry.sealedKeys)
    expect(shown['Dropped at entry']).toEqual(printed.entry.droppedKeys)
    expect(shown['Withheld from agent commands']).toEqual(printed.withheldKeys)
    expect(shown['Also removed when a command runs without asking']).toEqual(printed.autoRunRemovedKeys)
    expect(shown['Sealed at entry']).toContain('HTTPS_PROXY')
    expect(shown['Dropped at entry']).toContain('NODE_ENV')
    expect(shown['Withheld from agent commands']).toEqual(
      expect.arrayContaining(['AWS_SECRET_ACCESS_KEY', 'GH_TOKEN']),
    )
    expect(shown['Also removed when a command runs without asking']).toContain('NODE_OPTIONS')
    expect(await page.content()).not.toContain('e2e-aws-value')

    await settings.setPassThrough(['GH_TOKEN'])
    await expect.poll(async () => (await settings.environmentNames())['Passed through']).toEqual(['GH_TOKEN'])
    const after = await settings.environmentNames()
    expect(after['Withheld from agent commands']).not.toContain('GH_TOKEN')
    expect(after['Withheld from agent commands']).toEqual(cliEnv().withheldKeys)
    await shoot(page, 'settings-environment-withheld')
  } finally {
    await context.close()
    await serve.stop()
    await removeDirs(serve.workspace, serve.home)
  }
})

test('a corrupt settings file gives a warning, the defaults and a .bak', async ({ debianChromium }) => {
  const serve = await startServe()
  await serve.stop()
  await mkdir(serve.home, { recursive: true })
  await writeFile(join(serve.home, 'settings.json'), '{"permissions": {"mode": "yolo"')
  const restarted = await startServe({ workspace: serve.workspace, home: serve.home })
  const context = await debianChromium.newContext()
  try {
    const page = await context.newPage()
    await page.goto(restarted.url)
    const settings = new SettingsPage(page)
    await expect(settings.warningBanner()).toContainText('settings.json')
    expect(await settings.mode()).toBe('build')
    const files = await readdir(serve.home)
    const backup = files.find((name) => name.startsWith('settings.json') && name.includes('.bak'))
    expect(backup).toBeDefined()
    expect(await readFile(join(serve.home, backup ?? ''), 'utf8')).toBe('{"permissions": {"mode": "yolo"')
    await shoot(page, 'settings-warning')
  } finally {
    await context.close()
    await restarted.stop()
    await removeDirs(serve.workspace, serve.home)
  }
})

test('bad input is refused next to its field and nothing runs', async ({ appPage, serve }) => {
  // yolo: were the timeout not checked, the command would run at once rather than wait at a card.
  const settings = new SettingsPage(appPage)
  await settings.setMode('yolo')
  const savedBefore = await readFile(join(serve.home, 'settings.json'), 'utf8')
  const session = new SessionPage(appPage)
  await session.runCommand('touch never-made', { timeout: 'soon' })
  await expect.poll(() => session.fieldError('Timeout (ms)')).toMatch(/number|milliseconds/)
  await session.runCommand('x'.repeat(100_001))
  await expect.poll(() => session.fieldError('Command')).toMatch(/100000|100 000|too long|at most/)
  expect(existsSync(join(serve.workspace, 'never-made'))).toBe(false)

  expect(await settings.addRule('bad\u0000rule')).toMatch(/NUL/)
  expect(await readFile(join(serve.home, 'settings.json'), 'utf8')).toBe(savedBefore)
  expect(existsSync(join(serve.workspace, '.shellgate', 'settings.json'))).toBe(false)
})

test('the UI answers a click while a task prints 50 MB', async ({ appPage }) => {
  await new SettingsPage(appPage).setMode('yolo')
  // ~50 MB over a few seconds, so the click lands while the output is still streaming.
  const command =
    "for i in $(seq 1 50); do head -c 1048576 /dev/zero | tr '\\0' x | fold -w 100; sleep 0.05; done"
  const session = new SessionPage(appPage)
  await session.runCommand(command, { background: true })
  const tasks = new TasksPage(appPage)
  const row = await tasks.row(command)
  await row.output()
  expect(await row.status()).toBe('running')
  // The latency is recorded, not asserted (timing belongs to `npm run bench`); a frozen UI fails the wait.
  const started = Date.now()
  await new SettingsPage(appPage).open('About')
  const clickMs = Date.now() - started
  test
    .info()
    .annotations.push({ type: 'click latency (ms) while printing 50 MB', description: String(clickMs) })
  await tasks.open()
  expect(await row.status()).toBe('running')
  await row.waitForStatus('completed', 60_000)
  const printed = (await stat(await row.logPath())).size
  expect(printed).toBeGreaterThanOrEqual(50 * 1_048_576)
})

test("a repository's own allow rules are ignored until the user trusts them", async ({ debianChromium }) => {
  const first = await startServe()
  await first.stop()
  await mkdir(join(first.workspace, '.shellgate'), { recursive: true })
  await writeFile(
    join(first.workspace, '.shellgate', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['touch:*'] } }),
  )
  const serve = await startServe({ workspace: first.workspace, home: first.home })
  const context = await debianChromium.newContext()
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    const settings = new SettingsPage(page)
    await expect(settings.warningBanner()).toContainText('touch:*')
    const session = new SessionPage(page)
    await session.runCommand('touch from-repo-rule')
    await session.call('touch from-repo-rule').waitForStatus('waiting_for_approval')
    expect(existsSync(join(serve.workspace, 'from-repo-rule'))).toBe(false)
    await (await new ApprovalsPage(page).card('touch from-repo-rule')).deny()

    await settings.open('Permissions')
    await settings.panel().getByRole('button', { name: 'Trust these workspace rules' }).click()
    await expect(settings.panel().getByRole('button', { name: 'Trust these workspace rules' })).toHaveCount(0)
    await session.runCommand('touch after-trust')
    await session.call('touch after-trust').waitForStatus('completed')
    expect(existsSync(join(serve.workspace, 'after-trust'))).toBe(true)

    // A pull adds a rule and edits another: the running hub re-reads the file, trust is revoked,
    // and the panel says what changed since the user trusted it.
    await writeFile(
      join(serve.workspace, '.shellgate', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['touch:*', 'mkdir:*'] } }),
    )
    await expect(settings.warningBanner()).toContainText('mkdir:*')
    await settings.open('Permissions')
    const trustPanel = settings.panel().locator('.trust-notice')
    await expect(trustPanel).toContainText('Workspace rules changed since you trusted them')
    await expect(trustPanel.locator('.trust-added')).toHaveText(['+ mkdir:*'])
    await shoot(page, 'settings-trust-changed')
    await settings.panel().getByRole('button', { name: 'Trust these workspace rules' }).click()
    await expect(trustPanel).toHaveCount(0)
  } finally {
    await context.close()
    await serve.stop()
    await removeDirs(first.workspace, first.home)
  }
})

test('Settings → Network, Environment and Audit answer from the main process', async ({ appPage, serve }) => {
  const settings = new SettingsPage(appPage)
  await settings.setNetwork({ proxy: 'http://user:secret@127.0.0.1:3128', noProxy: 'internal.example' })
  // Each check replaces the previous answer when it arrives, so poll for the one asked about.
  await expect.poll(async () => (await settings.routeOf('https://example.com/')).route).toContain('proxy')
  expect(JSON.stringify(await settings.routeOf('https://example.com/'))).not.toContain('secret')
  await expect
    .poll(async () => (await settings.routeOf('https://internal.example/')).route)
    .toContain('direct')
  await settings.setNetwork({ proxy: 'not a url' })
  await expect.poll(() => settings.fieldError('Proxy')).toContain('is not a URL')
  await shoot(appPage, 'settings-network')

  const environment = await settings.environment()
  expect(Object.values(environment.facts).join(' ')).toMatch(/captured|failed|timed_out|skipped/)
  expect(environment.keys).toContain('PATH')
  await shoot(appPage, 'settings-environment')

  const session = new SessionPage(appPage)
  await session.runCommand('echo audited')
  await session.call('echo audited').waitForStatus('completed')
  // The table is replaced when the query answers, so poll until the filtered view is in place.
  await expect
    .poll(async () => JSON.stringify(await settings.auditRows({ decidedBy: 'read_only' })))
    .toContain('echo audited')
  await expect.poll(async () => (await settings.auditRows({ decidedBy: 'allowed_once' })).length).toBe(0)
  await shoot(appPage, 'settings-audit')
  expect(serve.home).toBeTruthy()
})

test('a pending approval survives a reload and answers to its keys', async ({ appPage, serve }) => {
  const session = new SessionPage(appPage)
  await session.runCommand('touch after-reload')
  await new ApprovalsPage(appPage).card('touch after-reload')
  await appPage.reload()
  const approvals = new ApprovalsPage(appPage)
  await approvals.card('touch after-reload')
  expect(await approvals.badgeCount()).toBe(1)
  // Key 1 is "Allow once" on the first card.
  await approvals.pressShortcut('1')
  await expect.poll(() => existsSync(join(serve.workspace, 'after-reload'))).toBe(true)
  await expect.poll(() => approvals.badgeCount()).toBe(0)
})

test('two sessions keep their own history, and both survive a restart', async ({ debianChromium }) => {
  const first = await startServe()
  const context = await debianChromium.newContext()
  try {
    let page = await context.newPage()
    await page.goto(first.url)
    let session = new SessionPage(page)
    await session.runCommand('echo in-first')
    await session.call('echo in-first').waitForStatus('completed')
    await session.newSession()
    await session.runCommand('echo in-second')
    await session.call('echo in-second').waitForStatus('completed')
    expect(await session.history().getByRole('article', { name: 'echo in-first', exact: true }).count()).toBe(
      0,
    )
    await first.stop()

    const second = await startServe({ workspace: first.workspace, home: first.home })
    try {
      page = await context.newPage()
      await page.goto(second.url)
      session = new SessionPage(page)
      await session.open()
      // The tabs show when sessions.list answers, which the open screen does not wait for.
      await expect
        .poll(() => session.sessionTitles())
        .toEqual(expect.arrayContaining(['Session 1', 'Session 2']))
      await session.selectSession('Session 1')
      expect(await session.call('echo in-first').content()).toBe('in-first')
      await session.selectSession('Session 2')
      expect(await session.call('echo in-second').content()).toBe('in-second')
    } finally {
      await second.stop()
    }
  } finally {
    await context.close()
    await removeDirs(first.workspace, first.home)
  }
})

test('Stop all stops every running task', async ({ appPage }) => {
  await new SettingsPage(appPage).setMode('yolo')
  const session = new SessionPage(appPage)
  for (const n of [1, 2])
    await session.runCommand(`while true; do echo task-${n}; sleep 0.2; done`, { background: true })
  const tasks = new TasksPage(appPage)
  const rows = [
    await tasks.row('while true; do echo task-1; sleep 0.2; done'),
    await tasks.row('while true; do echo task-2; sleep 0.2; done'),
  ]
  await tasks.stopAll()
  for (const row of rows) await row.waitForStatus('stopped', 15_000)
})

test('an approval nobody answers is denied at the timeout set in Settings → Permissions', async ({
  appPage,
  serve,
}) => {
  const settings = new SettingsPage(appPage)
  await settings.open('Permissions')
  const limits = settings.panel().getByRole('form', { name: 'Limits' })
  await limits.getByLabel('Approval timeout (ms, 0 = wait until answered)').fill('1500')
  await limits.getByRole('button', { name: 'Save limits' }).click()
  await expect(limits.getByRole('status')).toHaveText('Saved.')
  const session = new SessionPage(appPage)
  await session.runCommand('touch unanswered')
  const call = session.call('touch unanswered')
  await call.waitForStatus('denied', 15_000)
  expect(await call.content()).toMatch(/^No one answered the approval within \d+ s/)
  expect(existsSync(join(serve.workspace, 'unanswered'))).toBe(false)
})

test('a limit typed but not yet saved survives a settings refresh, and is what Save saves', async ({
  appPage,
  serve,
}) => {
  const settings = new SettingsPage(appPage)
  await settings.open('Permissions')
  const limits = settings.panel().getByRole('form', { name: 'Limits' })
  const field = limits.getByLabel('Approval timeout (ms, 0 = wait until answered)')
  await field.fill('1500')
  // The mode switch in the frame saves the mode and hands every panel a new settings snapshot.
  const mode = appPage.getByRole('group', { name: 'Mode' })
  await mode.getByRole('button', { name: 'plan' }).click()
  await expect(mode.getByRole('button', { name: 'plan', pressed: true })).toBeVisible()
  await expect(settings.panel().locator('[data-saved-mode]')).toHaveAttribute('data-saved-mode', 'plan')
  await expect(field).toHaveValue('1500')
  await limits.getByRole('button', { name: 'Save limits' }).click()
  await expect(limits.getByRole('status')).toHaveText('Saved.')
  const saved = JSON.parse(await readFile(join(serve.home, 'settings.json'), 'utf8'))
  expect(saved).toMatchObject({ permissions: { mode: 'plan' }, approvals: { timeoutMs: 1500 } })
})

test('every control on every screen has an accessible name and can be reached by keyboard', async ({
  appPage,
}) => {
  const session = new SessionPage(appPage)
  await session.runCommand('echo named')
  await session.call('echo named').waitForStatus('completed')
  const screens: [string, () => Promise<void>][] = [
    ['Session', () => session.open()],
    ['Tasks', () => new TasksPage(appPage).open()],
    ['Approvals', () => new ApprovalsPage(appPage).open()],
    ...(['Shell', 'Permissions', 'Network', 'Environment', 'Sandbox', 'Audit', 'About'] as const).map(
      (section) =>
        [`Settings → ${section}`, () => new SettingsPage(appPage).open(section)] as [
          string,
          () => Promise<void>,
        ],
    ),
  ]
  for (const [name, open] of screens) {
    await open()
    const problems = await appPage.evaluate(() => {
      const controls = Array.from(
        document.querySelectorAll<HTMLElement>(
          'button, input, select, textarea, a[href], [role="tab"], [tabindex]',
        ),
      ).filter((element) => element.offsetParent !== null && element.getAttribute('tabindex') !== '-1')
      const nameOf = (element: HTMLElement): string => {
        const labelledBy = element.getAttribute('aria-labelledby')
        const byId = labelledBy
          ?.split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
        const labels =
          'labels' in element
            ? Array.from((element as HTMLInputElement).labels ?? []).map((l) => l.textContent)
            : []
        return [
          element.getAttribute('aria-label'),
          byId,
          ...labels,
          element.textContent,
          element.getAttribute('title'),
        ]
          .filter(Boolean)
          .join(' ')
          .trim()
      }
      return controls
        .filter((element) => nameOf(element) === '' || element.tabIndex < 0)
        .map((element) => element.outerHTML.slice(0, 120))
    })
    expect(problems, `${name}: unnamed or unreachable controls`).toEqual([])
  }
})

test('the keys answer the oldest card without moving the focus, once per press; the tab title counts cards; closing asks first', async ({
  appPage,
  serve,
}) => {
  // Every request the page sends, in order; the reload makes the page open a socket we observe.
  const sent = recordRequests(appPage)
  await appPage.reload()
  const answers = () => sent.filter((request) => request.method === 'approvals.answer')
  const session = new SessionPage(appPage)
  await session.runCommand('touch a1')
  await expect(session.call('touch a1').inlineApproval().root).toBeVisible()
  await session.runCommand('touch a2')
  const approvals = new ApprovalsPage(appPage)
  await approvals.card('touch a2')
  await expect(appPage).toHaveTitle('(2) Shellgate')
  // The focus stays on the nav link that opened the inbox: the keys answer the oldest card from there.
  const navLink = appPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Approvals/ })
  await navLink.focus()
  const oldest = approvals.screen().getByRole('article', { name: 'touch a1', exact: true })
  await expect(oldest).toHaveAttribute('data-key-target', '')
  await expect(oldest).toHaveAttribute('data-keys-armed', '')
  // Two quick presses answer the oldest card only: the second lands on the next card before it is
  // armed, and the card says it was not used instead of swallowing it.
  await doublePress(appPage, '1')
  await expect.poll(() => existsSync(join(serve.workspace, 'a1'))).toBe(true)
  await expect(approvals.cards()).toHaveCount(1)
  const next = approvals.screen().getByRole('article', { name: 'touch a2', exact: true })
  await expect(next).toHaveAttribute('data-key-target', '')
  await expect(next.getByRole('status')).toContainText('1 was not used')
  await expect(navLink).toBeFocused()
  await expect(appPage).toHaveTitle('(1) Shellgate')
  const settings = new SettingsPage(appPage)
  await boundedBy(sent, () => settings.open('Audit'), 'audit.query')
  expect(answers()).toHaveLength(1)
  expect(existsSync(join(serve.workspace, 'a2'))).toBe(false)
  // Closing a session with a waiting approval asks first and says what will happen.
  await session.open()
  await session
    .tabs()
    .getByRole('button', { name: /^Close conversation/ })
    .first()
    .click()
  const group = session.tabs().getByRole('group', { name: /^Close conversation .*\?$/ })
  await expect(group).toContainText('1 approval will be denied')
  await group.getByRole('button', { name: 'Keep open' }).click()
  await expect(group).toBeHidden()
})

test('yolo is saved only on purpose and announced on every screen; a finished background call says how it ended', async ({
  appPage,
}) => {
  const settings = new SettingsPage(appPage)
  await settings.open('Permissions')
  const select = settings.panel().getByLabel('Permission mode')
  await select.selectOption('yolo')
  await expect(settings.panel().getByRole('note')).toContainText('nothing will be asked')
  expect(await settings.mode()).toBe('build')
  await expect(settings.yoloBanner()).toBeHidden()
  await settings.setMode('yolo')
  await expect(settings.yoloBanner()).toBeVisible()
  const session = new SessionPage(appPage)
  await session.runCommand('while true; do echo t; sleep 0.2; done', { background: true })
  const tasks = new TasksPage(appPage)
  const row = await tasks.row('while true; do echo t; sleep 0.2; done')
  await row.output()
  await session.open()
  await tasks.open()
  await expect(row.root.getByRole('region', { name: 'Task output' })).toBeVisible()
  await row.stop()
  await expect(row.root.locator('[data-field="stopped"]')).toHaveText('stopped by user')
  await session.open()
  await expect(appPage.locator('[data-field="background"]').first()).toContainText(
    'Ran in the background as task',
  )
  await expect(appPage.locator('[data-field="background"]').first()).toContainText('stopped')
})
