import { request } from 'node:http'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_HOST } from '../../../src/shared/ipc/channels'
import { appProtocolResponse } from '../../../src/main/security/app-protocol-response'
import { type RunningTestServer, startTestServer } from '../transports/harness'

/** The real response's headers for `path`: static assets need no credential, only our Host. */
function headersOf(
  running: RunningTestServer,
  path: string,
): Promise<Record<string, string | string[] | undefined>> {
  const { port } = running.server
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host: `127.0.0.1:${port}` },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.headers))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** `a 'x' y; b z` → {a: ["'x'", 'y'], b: ['z']}; a directive named twice is an error worth seeing. */
function directives(header: string): Record<string, string[]> {
  const parsed: Record<string, string[]> = {}
  for (const part of header
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...values] = part.split(/\s+/)
    expect(parsed, `duplicate directive ${name}`).not.toHaveProperty(name!)
    parsed[name!.toLowerCase()] = values
  }
  return parsed
}

/**
 * Pinned on what the server actually sends (issue 15.18), not on the constant it imports: the
 * renderer's <meta> CSP would mask a weakened header in the browser, so the header is read raw.
 */
describe('the Content-Security-Policy header of real responses', () => {
  let running: RunningTestServer
  beforeAll(async () => {
    running = await startTestServer()
    await writeFile(join(running.rendererDir, 'app.js'), 'console.log(1)')
  })
  afterAll(() => running.dispose())

  it.each(['/', '/app.js', '/missing.css'])('browser mode %s carries a strict policy', async (path) => {
    expectStrict((await headersOf(running, path))['content-security-policy'])
  })

  it.each(['/index.html', '/app.js', '/missing.css'])(
    'the Electron app:// protocol %s carries a strict policy',
    async (path) => {
      const response = await appProtocolResponse(running.rendererDir, `app://${APP_HOST}${path}`)
      expectStrict(response.headers.get('content-security-policy') ?? undefined)
    },
  )
})

function expectStrict(header: string | string[] | undefined): void {
  expect(typeof header).toBe('string')
  const csp = directives(header as string)
  const all = Object.values(csp).flat()
  for (const weak of [
    "'unsafe-inline'",
    "'unsafe-eval'",
    "'unsafe-hashes'",
    "'wasm-unsafe-eval'",
    '*',
    'http:',
    'https:',
  ])
    expect(all, weak).not.toContain(weak)
  expect(csp['frame-ancestors']).toEqual(["'none'"])
  expect(csp['object-src']).toEqual(["'none'"])
  expect(csp['base-uri']).toEqual(["'none'"])
  expect(csp['default-src']).toEqual(["'self'"])
  expect(csp['script-src']).toEqual(["'self'"])
}
