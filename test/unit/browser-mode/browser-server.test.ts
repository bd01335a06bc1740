import { writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PortBusyError, startBrowserServer } from '../../../src/main/browser-mode/browser-server'
import { createDispatcher } from '../../../src/main/ipc/dispatcher'
import { createEventHub } from '../../../src/main/ipc/event-hub'
import { CONTENT_SECURITY_POLICY } from '../../../src/main/security/content-security-policy'
import { createTestHandlers, testContract } from '../ipc/test-contract'
import { type RunningTestServer, startTestServer } from '../transports/harness'

interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
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

  it('serves pages and assets without any credential, with the CSP and no cookie', async () => {
    const page = await send(running.server.port, '/')
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.body).toContain('<!doctype html>')
    expect(page.headers['set-cookie']).toBeUndefined()
    const script = await send(running.server.port, '/app.js')
    expect(script.headers['content-type']).toContain('text/javascript')
    expect(script.headers['set-cookie']).toBeUndefined()
  })

  it('mints a fresh login address each time, with the code in the fragment only', () => {
    const first = running.server.mintLoginUrl()
    const second = running.server.mintLoginUrl()
    expect(first).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${running.server.port}/#code=[A-Za-z0-9_-]{43}$`),
    )
    expect(second).not.toBe(first)
    expect(new URL(first).search).toBe('')
  })

  it('never serves a file outside the renderer directory', async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/%00',
      '/..\\..\\x',
    ]) {
      const response = await send(running.server.port, path)
      expect(response.status, path).toBe(404)
    }
  })

  it('refuses a foreign Host header (DNS rebinding) and methods other than GET/HEAD', async () => {
    const response = await send(running.server.port, '/', { headers: { host: 'evil.example' } })
    expect(response.status).toBe(403)
    expect((await send(running.server.port, '/', { method: 'POST' })).status).toBe(405)
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
