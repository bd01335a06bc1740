import { request } from 'node:http'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../../src/main/security/content-security-policy'
import { PortBusyError, startBrowserServer } from '../../../src/main/browser-mode/browser-server'
import { createDispatcher } from '../../../src/main/ipc/dispatcher'
import { createEventHub } from '../../../src/main/ipc/event-hub'
import { type RunningTestServer, startTestServer } from '../transports/harness'
import { createTestHandlers, testContract } from '../ipc/test-contract'

interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('browser-mode page server', () => {
  let running: RunningTestServer
  beforeAll(async () => {
    running = await startTestServer()
    await writeFile(join(running.rendererDir, 'app.js'), 'console.log(1)')
  })
  afterAll(() => running.dispose())

  it('refuses pages without the token', async () => {
    const response = await get(running.server.port, '/')
    expect(response.status).toBe(401)
    expect(response.body).toContain('token')
  })

  it('trades the URL token for an HttpOnly cookie and serves with the CSP', async () => {
    const first = await get(running.server.port, `/?token=${running.server.token}`)
    expect(first.status).toBe(303)
    expect(first.headers.location).toBe('/')
    const cookie = String(first.headers['set-cookie'])
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    const page = await get(running.server.port, '/', { cookie: cookie.split(';')[0] ?? '' })
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(page.body).toContain('<!doctype html>')
    const script = await get(running.server.port, '/app.js', {
      cookie: `shellgate_token_${running.server.port}=${running.server.token}`,
    })
    expect(script.headers['content-type']).toContain('text/javascript')
  })

  it("does not accept another server's cookie: each port has its own", async () => {
    const other = `shellgate_token_${running.server.port + 1}=${running.server.token}`
    expect((await get(running.server.port, '/', { cookie: other })).status).toBe(401)
    expect(
      (await get(running.server.port, '/', { cookie: `shellgate_token=${running.server.token}` })).status,
    ).toBe(401)
  })

  it('never serves a file outside the renderer directory', async () => {
    const cookie = `shellgate_token_${running.server.port}=${running.server.token}`
    for (const path of [
      '/../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/%00',
      '/..\\..\\x',
    ]) {
      const response = await get(running.server.port, path, { cookie })
      expect(response.status, path).toBe(404)
    }
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const response = await get(running.server.port, `/?token=${running.server.token}`, {
      host: 'evil.example',
    })
    expect(response.status).toBe(403)
  })

  it('reports a busy port by number', async () => {
    const hub = createEventHub(testContract)
    const dispatcher = createDispatcher(
      testContract,
      createTestHandlers({ calls: [], aborted: new Set(), waiting: new Map() }),
    )
    const attempt = startBrowserServer({
      rendererDir: running.rendererDir,
      dispatcher,
      hub,
      port: running.server.port,
    })
    await expect(attempt).rejects.toBeInstanceOf(PortBusyError)
    await expect(attempt).rejects.toThrow(`port ${running.server.port}`)
  })
})
