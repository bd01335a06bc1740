import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, packageVersion, test } from './support/fixtures'

test('the app loads with its four screens', async ({ app, appPage }) => {
  await expect(appPage).toHaveTitle('Shellgate')
  for (const screen of ['Session', 'Tasks', 'Approvals', 'Settings'] as const) {
    await app.open(screen)
  }
  // The token left the address bar for a cookie.
  expect(appPage.url()).not.toContain('token=')
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

async function socketOutcome(
  page: import('@playwright/test').Page,
  url: string,
): Promise<'open' | 'refused'> {
  return page.evaluate(
    (target) =>
      new Promise<'open' | 'refused'>((resolve) => {
        const socket = new WebSocket(target)
        socket.onopen = () => {
          socket.close()
          resolve('open')
        }
        socket.onerror = () => resolve('refused')
      }),
    url,
  )
}

test('the RPC socket refuses a wrong or missing token and a foreign Origin', async ({
  debianChromium,
  appPage,
  serve,
}) => {
  const rpc = `ws://127.0.0.1:${serve.port}/rpc`
  // The app page itself (cookie + right Origin) is allowed: the control case.
  expect(await socketOutcome(appPage, rpc)).toBe('open')
  expect(await socketOutcome(appPage, `${rpc}?token=wrong`)).toBe('refused')

  // A fresh browser profile has no cookie: a page on our origin without the token is refused too.
  const stranger = await debianChromium.newContext()
  const strangerPage = await stranger.newPage()
  const response = await strangerPage.goto(`${serve.origin}/`)
  expect(response?.status()).toBe(401)
  expect(await socketOutcome(strangerPage, rpc)).toBe('refused')
  await stranger.close()

  // A foreign page that even knows the token is refused by its Origin.
  const evil = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' })
    response.end('<!doctype html><title>evil</title>')
  })
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve))
  const evilPort = (evil.address() as AddressInfo).port
  const evilContext = await debianChromium.newContext()
  const evilPage = await evilContext.newPage()
  await evilPage.goto(`http://127.0.0.1:${evilPort}/`)
  expect(await socketOutcome(evilPage, `${rpc}?token=${serve.token}`)).toBe('refused')
  await evilContext.close()
  evil.close()
})
