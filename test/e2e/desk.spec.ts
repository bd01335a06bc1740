import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { AppPage } from './pages/app-page'
import { SessionPage } from './pages/session-page'
import { renderedText } from './pages/text-of'
import { removeDirs, startServe } from './support/browser-mode-server'
import { expect, test } from './support/fixtures'

/**
 * Issue 14, "the desk people prefer": each test works the UI as a person would, by role and
 * accessible name, against a real `shellgate serve` in Debian's Chromium.
 */

/** A pid is gone when it no longer exists or is a zombie nobody will reap. */
async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  return stat === '' || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
}

const gitStatus = (dir: string) => execFileSync('git', ['status', '--porcelain'], { cwd: dir }).toString()

test('Enter runs a command; Shift+Enter adds a line, and the hint says so', async ({ appPage }) => {
  const session = new SessionPage(appPage)
  await session.ensureSession()
  await expect(appPage.getByText('Enter runs it; Shift+Enter adds a new line.')).toBeVisible()
  await session.typeAndEnter('echo one\necho two')
  const call = session.call('echo one\necho two')
  await call.waitForStatus('completed')
  expect(await call.content()).toBe('one\ntwo')
  await expect(session.commandField()).toHaveValue('')
})

test('an inline card never takes the focus: 1 typed in the command box stays text; Esc leaves the box, 1 answers', async ({
  appPage,
  serve,
}) => {
  const session = new SessionPage(appPage)
  await session.typeAndEnter('touch inline-key')
  const call = session.call('touch inline-key')
  await call.waitForStatus('waiting_for_approval')
  const card = call.inlineApproval()
  // The call's own event can arrive a moment before its approval's.
  await expect(card.root).toBeVisible()
  expect(await card.actions()).toEqual([
    { name: 'Allow once', key: '1' },
    { name: 'Always allow', key: '2' },
    { name: 'Deny', key: '3' },
    { name: 'Deny with a message', key: '4' },
  ])
  // The focus stayed where the person was typing, and the card says the keys go there.
  await expect(session.commandField()).toBeFocused()
  await expect(card.root.locator('[data-keys-state]')).toHaveAttribute('data-keys-state', 'typing')
  // The key handler runs before the key is typed: a "1" in the box means no card took it.
  await appPage.keyboard.press('1')
  await expect(session.commandField()).toHaveValue('1')
  expect(await call.status()).toBe('waiting_for_approval')
  await session.commandField().fill('')
  await session.commandField().press('Escape')
  await expect(card.root).toBeFocused()
  await expect(card.root).toHaveAttribute('data-keys-armed', '')
  await appPage.keyboard.press('1')
  await call.waitForStatus('completed')
  expect(existsSync(join(serve.workspace, 'inline-key'))).toBe(true)
  // The focus went to the call just allowed, not to the command box (where Esc and Ctrl+B are text).
  await expect(call.root).toBeFocused()
})

test('"Always allow touch:*" answers the two other waiting touch calls and says so; git status stays clean', async ({
  appPage,
  serve,
}) => {
  execFileSync('git', ['init', '-q'], { cwd: serve.workspace })
  const session = new SessionPage(appPage)
  for (const name of ['one', 'two', 'three']) {
    await session.typeAndEnter(`touch ${name}`)
    await session.call(`touch ${name}`).waitForStatus('waiting_for_approval')
  }
  const card = session.call('touch one').inlineApproval()
  expect(await card.suggestedRule()).toBe('touch:*')
  await card.alwaysAllow()
  await expect(appPage.getByRole('status', { name: 'Approval result' })).toHaveText(
    /Saved the rule touch:\* for this workspace, on this machine\. It also allowed 2 other waiting commands\./,
  )
  for (const name of ['one', 'two', 'three']) await session.call(`touch ${name}`).waitForStatus('completed')
  expect(await session.call('touch two').decision()).toContain('touch:*')
  expect(await new AppPage(appPage).approvals.badgeCount()).toBe(0)
  // The default scope is kept on this machine: nothing new in the repository but the touched files.
  expect(gitStatus(serve.workspace)).toBe('?? one\n?? three\n?? two\n')
  const rules = await new AppPage(appPage).settings.rules()
  expect(rules).toContainEqual(expect.objectContaining({ rule: 'touch:*', scope: 'local' }))
  expect(rules[0]?.source.startsWith(join(serve.home, 'workspaces'))).toBe(true)
})

test('"Share with the repository" says it shows up in git status, and does', async ({ appPage, serve }) => {
  execFileSync('git', ['init', '-q'], { cwd: serve.workspace })
  const session = new SessionPage(appPage)
  await session.typeAndEnter('mkdir shared')
  const card = session.call('mkdir shared').inlineApproval()
  await card.root.getByRole('button', { name: 'Always allow', exact: true }).click()
  await expect(card.root.getByLabel('Share with the repository')).toHaveAccessibleName(
    /it will show up in git status/,
  )
  await card.alwaysAllow(undefined, 'workspace')
  await session.call('mkdir shared').waitForStatus('completed')
  expect(gitStatus(serve.workspace)).toBe('?? .shellgate/\n')
})

test('"*" is refused from a card; Settings adds it only after a confirmation that says what it allows', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  await app.session.typeAndEnter('touch star')
  const card = app.session.call('touch star').inlineApproval()
  expect(await card.alwaysAllowExpectingError('*')).toContain('"*" would allow every command without asking')
  expect(await app.session.call('touch star').status()).toBe('waiting_for_approval')
  expect(await app.settings.rules()).toEqual([])

  await app.settings.open('Permissions')
  const form = app.settings.panel().getByRole('form', { name: 'Add a rule' })
  await form.getByLabel('Rule', { exact: true }).fill('rm:*')
  await form.getByRole('button', { name: 'Add rule' }).click()
  const question = form.getByRole('group', { name: 'Add a broad rule?' })
  await expect(question).toContainText('"rm:*" would allow every rm command without asking')
  expect(await app.settings.rules()).toEqual([])
  await question.getByRole('button', { name: 'Add anyway' }).click()
  await expect(app.settings.panel().getByRole('table', { name: 'Rules' })).toContainText('Careful:')
  expect(await app.settings.rules()).toContainEqual(expect.objectContaining({ rule: 'rm:*' }))
})

test('the mode shows on every screen, switches with Alt+M, and Save mode says what it did', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  const mode = appPage.getByRole('group', { name: 'Mode' })
  for (const screen of ['Session', 'Tasks', 'Approvals', 'Settings'] as const) {
    await app.open(screen)
    await expect(mode.getByRole('button', { name: 'build', pressed: true })).toBeVisible()
  }
  await appPage.keyboard.press('Alt+M')
  await expect(mode.getByRole('button', { name: 'plan', pressed: true })).toBeVisible()
  expect(await app.settings.mode()).toBe('plan')
  // yolo is a click and a confirmation, never a key.
  await mode.getByRole('button', { name: 'yolo' }).click()
  await appPage
    .getByRole('group', { name: 'Switch to yolo?' })
    .getByRole('button', { name: 'Cancel' })
    .click()
  await expect(mode.getByRole('button', { name: 'plan', pressed: true })).toBeVisible()

  await app.settings.open('Permissions')
  await app.settings.panel().getByLabel('Permission mode').selectOption('build')
  await app.settings.panel().getByRole('button', { name: 'Save mode' }).click()
  await expect(app.settings.panel().getByRole('status')).toHaveText(
    'Saved. Mode is now build: read-only commands run, the rest asks.',
  )
  await expect(mode.getByRole('button', { name: 'build', pressed: true })).toBeVisible()
})

/** Every sentence of every decision and approval text on the page. */
async function decisionTexts(page: Page): Promise<string[]> {
  const texts = page.locator('[data-field="decision"], [aria-label="Why approval is needed"]')
  return Promise.all((await texts.all()).map((text) => renderedText(text)))
}

test('no decision text shows an internal id or says a sentence twice', async ({ appPage }) => {
  const app = new AppPage(appPage)
  await app.session.typeAndEnter('echo read-only')
  await app.session.call('echo read-only').waitForStatus('completed')
  await app.session.typeAndEnter('touch asked')
  await app.session.call('touch asked').inlineApproval().alwaysAllow('touch asked', 'session')
  await app.session.call('touch asked').waitForStatus('completed')
  await app.session.typeAndEnter('touch asked')
  await expect(app.session.history().getByRole('article', { name: 'touch' })).toHaveCount(2)
  await app.session.typeAndEnter('mkdir waits')
  await app.session.call('mkdir waits').waitForStatus('waiting_for_approval')
  await app.settings.addRule('rm:*', 'deny', 'user')
  await app.session.open()
  await app.session.typeAndEnter('rm -f nothing')
  await app.session.call('rm -f nothing').waitForStatus('denied')

  const texts = await decisionTexts(appPage)
  // Five calls; the waiting one's inline card does not repeat the reason its call card shows.
  expect(texts.length).toBeGreaterThanOrEqual(5)
  expect(texts.join('\n')).toMatch(/Needs your approval: touch [^.]+\./)
  expect(texts.join('\n')).not.toContain('can change files')
  expect(texts.join('\n')).toContain('Allowed by your rule touch asked (this session).')
  expect(texts.join('\n')).toContain('Denied by your rule rm:* (all workspaces).')
  for (const text of texts) {
    expect(text).not.toMatch(
      /mode\.(build|plan|yolo)|rule\.(allow|ask|deny)|session:|[0-9a-f]{8}-[0-9a-f]{4}-/,
    )
    const sentences = text.split(/(?<=\.)\s+/).filter((sentence) => sentence.trim() !== '')
    expect(new Set(sentences).size, `a sentence is repeated in: ${text}`).toBe(sentences.length)
  }
})

test('a right-to-left override is revealed in the history and the Audit table', async ({ appPage }) => {
  const app = new AppPage(appPage)
  const command = 'echo safe\u202Etxt.sh'
  await app.session.runCommand(command)
  // Its accessible name is revealed too, so a screen reader never reads it reversed.
  const call = app.session.call('echo safe⟨U+202E⟩txt.sh')
  await call.waitForStatus('completed')
  await expect(call.root.locator('[data-field="command"]')).toHaveText('echo safe⟨U+202E⟩txt.sh')
  await expect(call.root.getByRole('note')).toContainText('1 invisible or direction-changing character')
  await app.settings.open('Audit')
  const table = app.settings.panel().getByRole('table', { name: 'Audit log' })
  await expect(table).toContainText('echo safe⟨U+202E⟩txt.sh')
  await expect(table.getByRole('note')).toContainText('direction-changing')
})

test('Stop all names how many it stops; the sidebar counts running tasks; a stopped call says Stopped', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  await app.settings.setMode('yolo')
  for (const n of [1, 2])
    await app.session.runCommand(`while true; do echo task-${n}; sleep 0.2; done`, { background: true })
  const badge = app.nav().getByTestId('tasks-badge')
  await expect(badge).toHaveText('2 running')
  expect(await app.tasks.stopAllQuestion()).toContain('Stop 2 running tasks?')
  expect(await app.tasks.stopAll()).toBe('Stopped 2 tasks.')
  await expect(badge).toHaveCount(0)
  await app.session.open()
  const call = app.session.call('while true; do echo task-1; sleep 0.2; done')
  await expect(call.root.locator('[data-field="status"]')).toHaveText('Stopped')
})

test('every screen is usable at 390, 700 and 1280 px, Audit included', async ({ appPage }) => {
  const app = new AppPage(appPage)
  await app.session.runCommand('echo wide enough')
  await app.session.call('echo wide enough').waitForStatus('completed')
  for (const width of [390, 700, 1280]) {
    await appPage.setViewportSize({ width, height: 900 })
    for (const screen of ['Session', 'Tasks', 'Approvals', 'Settings'] as const) {
      await app.open(screen)
      if (screen === 'Settings') await app.settings.open('Audit')
      // Nothing sticks out sideways: the page itself never scrolls horizontally.
      const overflow = await appPage.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, `${screen} at ${width} px`).toBeLessThanOrEqual(0)
      for (const link of ['Session', 'Tasks', 'Approvals', 'Settings'] as const)
        await expect(app.navLink(link)).toBeInViewport()
      await expect(appPage.getByRole('group', { name: 'Mode' })).toBeVisible()
      await app.screenshot(`desk-${screen.toLowerCase()}${screen === 'Settings' ? '-audit' : ''}-${width}`)
    }
    await expect(app.settings.panel().getByRole('table', { name: 'Audit log' })).toContainText(
      'echo wide enough',
    )
  }
})

test('a running command is stopped from its card, and another is sent to the background with Ctrl+B', async ({
  appPage,
  serve,
}) => {
  const app = new AppPage(appPage)
  await app.settings.setMode('yolo')
  // The pids are checked on the host; inside the sandbox's PID namespace `$!` is another number.
  await app.settings.setSandboxMode('off')
  const stopped = 'sleep 300 & echo $! > child; echo $$ > parent; while true; do sleep 0.2; done'
  const first = await app.session.runCall(stopped)
  await first.waitForStatus('running')
  await expect.poll(() => existsSync(join(serve.workspace, 'child'))).toBe(true)
  const pids = await Promise.all(
    ['child', 'parent'].map(async (name) => Number(await readFile(join(serve.workspace, name), 'utf8'))),
  )
  await first.root.getByRole('button', { name: /^Stop sleep 300/ }).click()
  await first.waitForStatus('cancelled')
  await expect.poll(async () => (await Promise.all(pids.map(isGone))).every(Boolean)).toBe(true)

  const moved = 'while true; do echo moved-tick; sleep 0.2; done'
  const second = await app.session.runCall(moved)
  await second.waitForStatus('running')
  await second.root.focus()
  await appPage.keyboard.press('Control+B')
  await second.waitForStatus('backgrounded')
  expect(await second.content()).toContain('Command running in background with ID:')
  const row = await app.tasks.row(moved)
  expect(await row.status()).toBe('running')
  await row.stop()
})

test('a here-doc keeps its lines in the suggested exact rule, and the rule allows it again', async ({
  appPage,
  serve,
}) => {
  const app = new AppPage(appPage)
  const command = 'cat > notes.txt <<EOF\nline one\nline two\nEOF'
  await app.session.runCommand(command)
  const card = app.session.call('cat > notes.txt <<EOF\nline one\nline two\nEOF').inlineApproval()
  expect(await card.suggestedRule()).toBe(command)
  await card.alwaysAllow()
  await expect.poll(() => existsSync(join(serve.workspace, 'notes.txt'))).toBe(true)
  await app.session.runCommand(command)
  await expect(app.session.history().locator('[data-status="completed"]')).toHaveCount(2)
})

test('the page has a favicon, and loading it logs no 404 or other console error', async ({
  debianChromium,
  serve,
}) => {
  const context = await debianChromium.newContext()
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`)
  })
  await page.goto(serve.url)
  await new AppPage(page).session.ensureSession()
  const icon = await page.locator('link[rel="icon"]').getAttribute('href')
  const response = await page.request.get(new URL(icon ?? '', page.url()).toString())
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toBe('image/svg+xml')
  expect(problems).toEqual([])
  await context.close()
})

test('serve without --workspace asks which folder to work in, and offers it again next time', async ({
  debianChromium,
}) => {
  const startedIn = await mkdtemp(join(tmpdir(), 'shellgate-e2e-cwd-'))
  const chosen = await mkdtemp(join(tmpdir(), 'shellgate-e2e-chosen-'))
  const first = await startServe({ workspace: startedIn, askWorkspace: true })
  const open = async (url: string) => {
    const context = await debianChromium.newContext()
    const page = await context.newPage()
    await page.goto(url)
    return { page, context }
  }
  try {
    const { page, context } = await open(first.url)
    await expect(page.getByRole('heading', { name: 'Which folder do you want to work in?' })).toBeVisible()
    const form = page.getByRole('form', { name: 'Choose a folder' })
    await form.getByLabel('Folder').fill('relative/path')
    await form.getByRole('button', { name: 'Work in this folder' }).click()
    await expect(form.getByRole('alert')).toContainText('"relative/path" is not an absolute path')
    await form.getByLabel('Folder').fill(chosen)
    await form.getByRole('button', { name: 'Work in this folder' }).click()
    const session = new SessionPage(page)
    await session.ensureSession()
    expect(await session.workspace()).toBe(chosen)
    await session.runCommand('pwd')
    await session.call('pwd').waitForStatus('completed')
    expect(await session.call('pwd').content()).toBe(chosen)
    await context.close()
    await first.stop()

    const second = await startServe({ workspace: startedIn, home: first.home, askWorkspace: true })
    try {
      const again = await open(second.url)
      await again.page.getByRole('button', { name: `Open ${chosen}` }).click()
      await new SessionPage(again.page).ensureSession()
      expect(await new SessionPage(again.page).workspace()).toBe(chosen)
      await again.context.close()
    } finally {
      await second.stop()
    }
  } finally {
    await first.stop()
    await removeDirs(startedIn, chosen, first.home)
  }
})

test('Test connection that fails on a certificate names the sealed CA file and offers to use it', async ({
  debianChromium,
}) => {
  const dir = await mkdtemp(join(tmpdir(), 'shellgate-e2e-tls-'))
  const cert = join(dir, 'local-ca.pem')
  const key = join(dir, 'local-ca.key')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  )
  const server = createHttpsServer({ cert: await readFile(cert), key: await readFile(key) }, (_req, res) => {
    res.end('trusted')
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`
  // The user's own CA variable (one Node does not read at boot): sealed for their tools, so
  // Shellgate's own requests do not trust it until the person says so.
  const serve = await startServe({ env: { SSL_CERT_FILE: cert } })
  const context = await debianChromium.newContext()
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    const app = new AppPage(page)
    await app.settings.open('Network')
    const check = app.settings.panel().getByRole('form', { name: 'Where will this URL go?' })
    await check.getByLabel('URL').fill(url)
    await check.getByRole('button', { name: 'Test connection' }).click()
    const found = check.getByRole('region', { name: 'Certificate settings found' })
    await expect(found).toContainText(`sealed SSL_CERT_FILE = ${cert}`)
    await expect(check.locator('[data-field="status"]')).toHaveText('error')
    await found.getByRole('button', { name: `Use ${cert} for Shellgate’s own requests` }).click()
    await expect(found.getByRole('status')).toContainText(`Shellgate’s own requests now trust ${cert}`)
    await check.getByRole('button', { name: 'Test connection' }).click()
    await expect(check.locator('[data-field="httpStatus"]')).toHaveText('200')
  } finally {
    await context.close()
    await serve.stop()
    server.close()
    await removeDirs(dir, serve.workspace, serve.home)
  }
})

test('a long command is folded past 12 lines with "Show all", and the answers stay in view', async ({
  appPage,
}) => {
  const app = new AppPage(appPage)
  const lines = Array.from({ length: 30 }, (_, n) => `touch folded-${n}`)
  await app.session.runCommand(lines.join('\n'))
  const call = new SessionPage(appPage).lastCall()
  await call.waitForStatus('waiting_for_approval')
  const command = call.root.locator('[data-field="command"]')
  await expect(command).toHaveAttribute('data-folded', '')
  await expect(command).not.toContainText('touch folded-29')
  await expect(
    call.inlineApproval().root.getByRole('button', { name: 'Allow once', exact: true }),
  ).toBeInViewport()
  await call.root.getByRole('button', { name: 'Show all (30 lines)' }).click()
  await expect(command).toContainText('touch folded-29')
  await call.inlineApproval().deny()
})
