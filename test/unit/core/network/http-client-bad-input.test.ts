import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient } from '../../../../src/main/core/network/http-client'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'
import { NetworkConfigError } from '../../../../src/main/core/network/network-error'
import { startHttpServer, type TestServer } from '../../../fixtures/network/http-server'

let dir: string
let server: TestServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shellgate-net-bad-'))
  server = await startHttpServer((_request, response) => response.end('counted'))
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Every case must fail with the setting named and leave the counting server untouched. */
async function expectRefusedBeforeSending(run: () => Promise<unknown>, setting: string, message: string) {
  const before = server.requests.length
  const error = await run().then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(NetworkConfigError)
  expect(error).toMatchObject({ setting, code: 'invalid_config', message: expect.stringContaining(message) })
  expect((error as Error).message.startsWith(`${setting}: `)).toBe(true)
  expect(server.requests.length).toBe(before)
}

describe('bad input: a clear error naming the setting, and no request sent', () => {
  it('a proxy that is not a URL', async () => {
    await expectRefusedBeforeSending(
      async () => {
        const config = resolveNetworkConfig({
          settings: { network: { httpProxy: 'http://prox y:8080' } },
          env: {},
        })
        await createHttpClient({ config }).request({ url: `${server.origin}/` })
      },
      'network.httpProxy',
      'is not a URL',
    )
  })

  it('an unreadable CA file', async () => {
    const missing = join(dir, 'missing.pem')
    await expectRefusedBeforeSending(
      () =>
        createHttpClient({ config: resolveNetworkConfig({ env: { SHELLGATE_CA_CERT: missing } }) }).request({
          url: `${server.origin}/`,
        }),
      'SHELLGATE_CA_CERT',
      `cannot read the CA file "${missing}" (ENOENT)`,
    )
    await expectRefusedBeforeSending(
      () =>
        createHttpClient({
          config: resolveNetworkConfig({ settings: { network: { caCertFile: dir } }, env: {} }),
        }).request({ url: `${server.origin}/` }),
      'network.caCertFile',
      '(not a regular file)',
    )
  })

  it('a CA file that holds no certificate', async () => {
    const notPem = join(dir, 'not.pem')
    writeFileSync(notPem, 'hello')
    await expectRefusedBeforeSending(
      () =>
        createHttpClient({ config: resolveNetworkConfig({ env: { SHELLGATE_CA_CERT: notPem } }) }).request({
          url: `${server.origin}/`,
        }),
      'SHELLGATE_CA_CERT',
      'contains no PEM certificate',
    )
  })

  it('a URL with credentials', async () => {
    const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
    await expectRefusedBeforeSending(
      () => client.request({ url: server.origin.replace('http://', 'http://user:pw@') }),
      'url',
      'credentials in the URL are not allowed',
    )
  })

  it('a URL with an unknown scheme, or no URL at all', async () => {
    const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
    await expectRefusedBeforeSending(
      () => client.request({ url: server.origin.replace('http://', 'ws://') }),
      'url',
      'unsupported scheme "ws:"',
    )
    await expectRefusedBeforeSending(
      () => client.request({ url: '127.0.0.1/' }),
      'url',
      'is not an absolute URL',
    )
  })

  it('a sealed user proxy that is not a URL, for a web-fetch client', async () => {
    const env = { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: JSON.stringify({ https_proxy: 'gopher://old' }) }
    const client = createHttpClient({ config: resolveNetworkConfig({ env }), sealedFallback: true })
    await expectRefusedBeforeSending(
      () => client.request({ url: `${server.origin}/` }),
      'https_proxy (sealed)',
      'unsupported proxy scheme "gopher:"',
    )
  })

  it('a method that is not an HTTP token, or a non-positive timeout or body cap', async () => {
    const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
    const url = `${server.origin}/`
    await expectRefusedBeforeSending(
      () => client.request({ url, method: 'GET /admin HTTP/1.1\r\nX:' }),
      'method',
      'is not an HTTP method',
    )
    await expectRefusedBeforeSending(() => client.request({ url, timeoutMs: 0 }), 'timeoutMs', 'got 0')
    await expectRefusedBeforeSending(
      () => client.request({ url, maxBodyBytes: 1.5 }),
      'maxBodyBytes',
      'got 1.5',
    )
  })
})
