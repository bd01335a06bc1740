import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { AppPage } from './pages/app-page'
import { removeDirs, startServe } from './support/browser-mode-server'
import { expect, test } from './support/fixtures'

const KEY_STORAGE = 'shellgate.sessionKey'

interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** Another local web server (a dev server, another user's service): records everything it is sent. */
async function startOtherServer(): Promise<{ origin: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      response.end('<!doctype html><title>another local server</title><p>hello</p>')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** 'open', `closed <code>` (the server closed it after the handshake), or 'refused' (no handshake). */
function socketOutcome(page: Page, url: string, protocols: string[]): Promise<string> {
  return page.evaluate(
    ({ target, offered }) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(target, offered)
        let opened = false
        socket.onopen = () => {
          opened = true
          // A refusing server closes at once; give it the chance before calling the socket open.
          socket.send(JSON.stringify({ kind: 'request', id: 1, method: 'app.info', params: {} }))
        }
        socket.onmessage = () => {
          socket.close()
          resolve('open')
        }
        socket.onclose = (event) => resolve(opened ? `closed ${event.code}` : 'refused')
      }),
    { target: url, offered: protocols },
  )
}

test('after using the UI, a page on another 127.0.0.1 port receives no credential and reaches nothing', async ({
  debianChromium,
  serve,
}) => {
  const context = await debianChromium.newContext()
  const other = await startOtherServer()
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    const app = new AppPage(page)
    const call = await app.session.runCall('echo used-the-ui')
    await call.waitForStatus('completed')
    // The code left the address bar at once; the key lives in this tab's sessionStorage only.
    expect(page.url()).not.toContain(serve.code)
    const key = (await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)) ?? ''
    expect(key).not.toBe('')
    expect(await context.cookies()).toEqual([])
    // A reload has no code any more and logs in again with the stored key.
    await page.reload()
    await app.open('Settings')
    expect((await app.aboutFacts()).transport).toBe('websocket')

    // The same browser profile visits the other server, and the Shellgate tab navigates there too.
    const strangerPage = await context.newPage()
    await strangerPage.goto(`${other.origin}/page`)
    await page.evaluate((target) => location.assign(target), `${other.origin}/from-shellgate`)
    await expect.poll(() => other.seen.some((request) => request.url === '/from-shellgate')).toBe(true)

    const attempts = await strangerPage.evaluate(async (shellgate) => {
      const read = async (attempt: () => Promise<Response>) => {
        try {
          const response = await attempt()
          return `${response.type} ${response.status} ${await response.text()}`
        } catch {
          return 'failed'
        }
      }
      return {
        exchange: await read(() =>
          fetch(`${shellgate}/auth/exchange`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ code: 'guess' }),
            credentials: 'include',
          }),
        ),
        exchangeNoCors: await read(() =>
          fetch(`${shellgate}/auth/exchange`, {
            method: 'POST',
            mode: 'no-cors',
            body: JSON.stringify({ code: 'guess' }),
            credentials: 'include',
          }),
        ),
        rpcOverHttp: await read(() => fetch(`${shellgate}/rpc`, { credentials: 'include' })),
        storedKeys: sessionStorage.length + localStorage.length,
      }
    }, serve.origin)
    // No CORS header lets a read through, and Cross-Origin-Resource-Policy blocks even an opaque answer.
    expect(attempts).toEqual({
      exchange: 'failed',
      exchangeNoCors: 'failed',
      rpcOverHttp: 'failed',
      storedKeys: 0,
    })
    const rpc = `ws://127.0.0.1:${serve.port}/rpc`
    expect(await socketOutcome(strangerPage, rpc, [])).toBe('refused')
    expect(await socketOutcome(strangerPage, rpc, ['shellgate.rpc.v1'])).toBe('refused')
    // Even holding the key (it cannot read it, but suppose it did), a foreign Origin is refused.
    expect(await socketOutcome(strangerPage, rpc, ['shellgate.rpc.v1', `shellgate.key.${key}`])).toBe(
      'refused',
    )

    expect(other.seen.length).toBeGreaterThanOrEqual(2)
    for (const request of other.seen) {
      expect(request.headers.cookie, request.url).toBeUndefined()
      const everything = JSON.stringify(request)
      expect(everything, request.url).not.toContain(key)
      expect(everything, request.url).not.toContain(serve.code)
      expect(everything, request.url).not.toContain(`127.0.0.1:${serve.port}`)
    }
    const fromShellgate = other.seen.find((request) => request.url === '/from-shellgate')
    expect(fromShellgate?.headers.referer).toBeUndefined()
  } finally {
    await context.close()
    await other.close()
  }
})

test('a login address works once: a second browser sees "already used" and gets no RPC', async ({
  debianChromium,
  serve,
}) => {
  const first = await debianChromium.newContext()
  const second = await debianChromium.newContext()
  try {
    const firstPage = await first.newPage()
    await firstPage.goto(serve.url)
    await new AppPage(firstPage).open('Tasks')

    const secondPage = await second.newPage()
    await secondPage.goto(serve.url)
    await expect(secondPage.getByRole('alert')).toContainText('This address was already used')
    await expect(secondPage.getByRole('alert')).toContainText('shellgate ui')
    await expect(secondPage.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
    expect(await secondPage.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBeNull()
    // Our own origin without a key: the socket opens only to be closed with the "no key" code.
    expect(await socketOutcome(secondPage, `ws://127.0.0.1:${serve.port}/rpc`, ['shellgate.rpc.v1'])).toBe(
      'closed 4401',
    )

    // A page on our origin with no address at all says how to get one.
    const bare = await second.newPage()
    await bare.goto(`${serve.origin}/`)
    await expect(bare.getByRole('alert')).toContainText('has not logged in')
  } finally {
    await first.close()
    await second.close()
  }
})

test("after a restart the page's old key is refused with a message, not retried forever", async ({
  debianChromium,
}) => {
  const firstRun = await startServe()
  const context = await debianChromium.newContext()
  let secondRun: Awaited<ReturnType<typeof startServe>> | null = null
  try {
    const page = await context.newPage()
    await page.goto(firstRun.url)
    await new AppPage(page).open('Approvals')
    await firstRun.stop()
    await expect(page.getByText('Not connected to Shellgate')).toBeVisible()
    // Same port, same home: a new hub process, with a new secret.
    secondRun = await startServe({ port: firstRun.port, workspace: firstRun.workspace, home: firstRun.home })
    await expect(page.getByText("This page's key is not from this Shellgate")).toBeVisible()
    expect(await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBeNull()
  } finally {
    await context.close()
    await secondRun?.stop()
    await firstRun.stop()
    await removeDirs(firstRun.workspace, firstRun.home)
  }
})

test('a copy of the page key opens nothing while the page is there, nor after the person logs out (issue 19.4)', async ({
  debianChromium,
  serve,
}) => {
  const context = await debianChromium.newContext()
  const thief = await debianChromium.newContext()
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    const app = new AppPage(page)
    await app.open('Settings')
    expect((await app.aboutFacts()).transport).toBe('websocket')
    // What a program that read Chromium's Session Storage off the disk would hold.
    const key = (await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)) ?? ''
    expect(key).not.toBe('')
    const origin = new URL(serve.url).origin
    const elsewhere = await thief.newPage()
    await elsewhere.goto(`${origin}/`)
    const rpc = `${origin.replace('http', 'ws')}/rpc`
    const offered = ['shellgate.rpc.v1', `shellgate.key.${key}`]
    expect(await socketOutcome(elsewhere, rpc, offered)).toBe('closed 4409')

    await page.getByRole('button', { name: 'Log out of this page' }).click()
    await expect(page.getByText('You logged out of this page')).toBeVisible()
    expect(await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBeNull()
    expect(await socketOutcome(elsewhere, rpc, offered)).toBe('closed 4410')
    // A reload of the logged-out tab has no key left to try.
    await page.reload()
    await expect(page.getByRole('alert')).toContainText('has not logged in')
  } finally {
    await thief.close()
    await context.close()
  }
})
