import { expect, packageVersion, test } from './support/fixtures'

test('the app loads with its four screens', async ({ app, appPage }) => {
  await expect(appPage).toHaveTitle('Shellgate')
  for (const screen of ['Session', 'Tasks', 'Approvals', 'Settings'] as const) {
    await app.open(screen)
  }
  // The one-time code left the address bar before the page did anything else.
  expect(appPage.url()).not.toContain('code=')
})

test('Settings → About shows real values from the main process', async ({ app, serve }) => {
  const facts = await app.aboutFacts()
  expect(facts).toMatchObject({
    appVersion: packageVersion,
    nodeVersion: process.versions.node,
    electronVersion: 'browser mode',
    dataDir: serve.home,
    workspace: serve.workspace,
    transport: 'websocket',
  })
  expect(facts.platform).toBe(`${process.platform} (${process.arch})`)
})

test('no Node or Electron globals reach the page', async ({ appPage }) => {
  const globals = await appPage.evaluate(() => ({
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
    module: typeof (window as unknown as { module?: unknown }).module,
  }))
  expect(globals).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined' })
})

test('the CSP blocks an injected inline script', async ({ appPage }) => {
  const outcome = await appPage.evaluate(async () => {
    const violation = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (event) => resolve(event.violatedDirective), {
        once: true,
      }),
    )
    const script = document.createElement('script')
    script.textContent = 'window.__injected = true'
    document.body.appendChild(script)
    const directive = await violation
    return { directive, ran: (window as unknown as { __injected?: boolean }).__injected === true }
  })
  expect(outcome.ran).toBe(false)
  expect(outcome.directive).toContain('script-src')
})
