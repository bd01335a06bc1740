import { expect, packageVersion, test } from './support/fixtures'

test('the app loads with its four screens', async ({ app, appPage }) => {
  await expect(appPage).toHaveTitle('Shellgate')
  for (const screen of ['Session', 'Tasks', 'Approvals', 'Settings'] as const) {
    await app.open(screen)
  }
  // The one-time code left the address bar before the page did anything else.
  expect(appPage.url()).not.toContain('code=')
})

test('the nav links keep their place while the app loads, so an early click lands', async ({
  debianChromium,
  serve,
}) => {
  const context = await debianChromium.newContext()
  try {
    const page = await context.newPage()
    // Every frame from the first paint, where the Tasks link is: a click aimed at it when it first
    // shows must still find it when the button comes up (a move in between loses the click).
    await page.addInitScript(() => {
      const tops: number[] = []
      Object.assign(window, { __tasksLinkTops: tops })
      const sample = () => {
        const link = Array.from(document.querySelectorAll('nav[aria-label="Main"] a')).find((a) =>
          a.textContent?.startsWith('Tasks'),
        )
        const top = link?.getBoundingClientRect().top
        if (top !== undefined && tops.at(-1) !== top) tops.push(top)
        requestAnimationFrame(sample)
      }
      requestAnimationFrame(sample)
    })
    await page.goto(serve.url)
    // The last thing the frame loads: the mode switch's saved mode.
    await expect(
      page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'build', pressed: true }),
    ).toBeVisible()
    // Which mode is pressed (shown bold) must not move them either.
    await page.keyboard.press('Alt+M')
    await expect(
      page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'plan', pressed: true }),
    ).toBeVisible()
    // Two frames, so the sampler has seen the layout the last change made.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    const tops = await page.evaluate(
      () => (window as unknown as { __tasksLinkTops: number[] }).__tasksLinkTops,
    )
    expect(tops).toHaveLength(1)
  } finally {
    await context.close()
  }
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
