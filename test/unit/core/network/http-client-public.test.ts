import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HostResolver } from '../../../../src/main/core/network/host-resolver'
import { createHttpClient } from '../../../../src/main/core/network/http-client'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'
import { sendWithNode } from '../../../../src/main/core/network/node-transport'
import { MAX_RESPONSE_BODY_BYTES } from '../../../../src/main/core/network/response-body'
import { startForwardProxy } from '../../../fixtures/network/forward-proxy'
import { startHttpServer, startHttpsServer, type TestServer } from '../../../fixtures/network/http-server'
import { generateTestCertificates } from '../../../fixtures/network/tls-cert'

let dir: string
let caFile: string
let server: TestServer
let secure: TestServer
let proxy: TestServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shellgate-net-public-'))
  const certs = generateTestCertificates(dir)
  caFile = certs.caFile
  server = await startHttpServer((request, response) => response.end(`host=${request.headers.host}`))
  secure = await startHttpsServer(certs, (request, response) => response.end(`host=${request.headers.host}`))
  proxy = await startForwardProxy()
})

afterAll(async () => {
  await Promise.all([server.close(), secure.close(), proxy.close()])
  rmSync(dir, { recursive: true, force: true })
})

/** Names resolve from this table only; no test ever asks real DNS or leaves this machine. */
const resolver: HostResolver = async (hostname) => {
  const table: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'six.test': ['::1'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
  }
  return (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

function publicClient() {
  // A proxy is configured on purpose: the public policy must never use it.
  const config = resolveNetworkConfig({ env: { SHELLGATE_HTTP_PROXY: proxy.origin } })
  return createHttpClient({ config, resolver })
}

describe('public egress policy in the client', () => {
  it.each([
    ['127.0.0.1', 'loopback address'],
    ['127.1', 'loopback address'],
    ['2130706433', 'loopback address'],
    ['0x7f000001', 'loopback address'],
    ['0177.0.0.1', 'loopback address'],
    ['0x7f.0.0.1', 'loopback address'],
    ['[::1]', 'loopback address'],
    ['[::ffff:127.0.0.1]', 'IPv4-mapped'],
    ['[64:ff9b::127.0.0.1]', 'NAT64'],
    ['[2002:7f00:1::]', '6to4'],
    ['localhost', 'names this machine'],
    ['loopback.test', '"loopback.test" resolves to 127.0.0.1'],
    ['six.test', '"six.test" resolves to ::1'],
    ['mixed.test', '"mixed.test" resolves to 127.0.0.1'],
    ['metadata.test', 'cloud metadata'],
    ['nothing.test', 'resolved to no address'],
  ])('refuses %s, sending nothing to the server or the proxy', async (host, reason) => {
    const [serverBefore, proxyBefore] = [server.requests.length, proxy.requests.length]
    await expect(
      publicClient().request({ url: `http://${host}:${server.port}/`, egressPolicy: 'public' }),
    ).rejects.toMatchObject({ code: 'rejected', message: expect.stringContaining(reason) })
    expect(server.requests.length).toBe(serverBefore)
    expect(proxy.requests.length).toBe(proxyBefore)
  })

  it('reports resolver failures as network errors', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND gone.test'), { code: 'ENOTFOUND' })
    }
    const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }), resolver: failing })
    await expect(client.request({ url: 'https://gone.test/', egressPolicy: 'public' })).rejects.toMatchObject(
      {
        code: 'network',
        message: expect.stringContaining('ENOTFOUND'),
      },
    )
  })

  it('times out a resolver that never answers', async () => {
    const hanging: HostResolver = () => new Promise(() => {})
    const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }), resolver: hanging })
    await expect(
      client.request({ url: 'https://slow.test/', egressPolicy: 'public', timeoutMs: 200 }),
    ).rejects.toMatchObject({ code: 'timeout' })
  })
})

describe('the pinned connection (no window for DNS rebinding)', () => {
  const hop = (url: string) => ({
    url: new URL(url),
    method: 'GET',
    headers: {},
    body: undefined,
    signal: new AbortController().signal,
    maxBodyBytes: MAX_RESPONSE_BODY_BYTES,
  })

  it('connects to the vetted address even for a name DNS does not know, keeping the Host header', async () => {
    const response = await sendWithNode(hop(`http://rebind.invalid:${server.port}/`), {
      proxyUrl: null,
      ca: undefined,
      pinned: { hostname: 'rebind.invalid', address: '127.0.0.1', family: 4 },
    })
    expect(response.body.toString()).toBe(`host=rebind.invalid:${server.port}`)
  })

  it('still verifies the certificate against the name, not the pinned address', async () => {
    const { createCaLoader } = await import('../../../../src/main/core/network/ca-certificate')
    const ca = createCaLoader({ value: caFile, source: 'test' })()
    const pinned = { address: '127.0.0.1', family: 4 as const }
    const ok = await sendWithNode(hop(`https://localhost:${secure.port}/`), {
      proxyUrl: null,
      ca,
      pinned: { hostname: 'localhost', ...pinned },
    })
    expect(ok.body.toString()).toBe(`host=localhost:${secure.port}`)
    await expect(
      sendWithNode(hop(`https://other.invalid:${secure.port}/`), {
        proxyUrl: null,
        ca,
        pinned: { hostname: 'other.invalid', ...pinned },
      }),
    ).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' })
  })
})
