import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient, TRACE_ID_HEADER } from '../../../../src/main/core/network/http-client'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'
import { type ConnectProxy, startConnectProxy } from '../../../fixtures/network/connect-proxy'
import { startForwardProxy } from '../../../fixtures/network/forward-proxy'
import { startHttpServer, startHttpsServer, type TestServer } from '../../../fixtures/network/http-server'
import { type Socks5Proxy, startSocks5Proxy } from '../../../fixtures/network/socks5-proxy'
import { generateTestCertificates, type TestCertificates } from '../../../fixtures/network/tls-cert'

let dir: string
let certs: TestCertificates
let origin: TestServer
let tlsOrigin: TestServer
let forwardProxy: TestServer
let connectProxy: ConnectProxy
let socksProxy: Socks5Proxy

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shellgate-net-'))
  certs = generateTestCertificates(dir)
  origin = await startHttpServer((request, response) => response.end(`plain ${request.url}`))
  tlsOrigin = await startHttpsServer(certs, (request, response) => response.end(`secure ${request.url}`))
  forwardProxy = await startForwardProxy()
  connectProxy = await startConnectProxy()
  socksProxy = await startSocks5Proxy()
})

afterAll(async () => {
  await Promise.all([
    origin.close(),
    tlsOrigin.close(),
    forwardProxy.close(),
    connectProxy.close(),
    socksProxy.close(),
  ])
  rmSync(dir, { recursive: true, force: true })
})

describe('HTTP client routing', () => {
  it('goes direct through the global fetch with a trace id header', async () => {
    const client = createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
    const response = await client.request({ url: `${origin.origin}/direct` })
    expect(response.status).toBe(200)
    expect(response.body.toString()).toBe('plain /direct')
    expect(response.route).toMatchObject({ route: 'direct', rule: 'no_proxy_configured' })
    const received = origin.requests.at(-1)!
    expect(received.headers[TRACE_ID_HEADER]).toBe(response.traceId)
    expect(response.traceId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('sends http:// through the forward proxy from settings, with its credentials as Proxy-Authorization', async () => {
    const before = forwardProxy.requests.length
    const proxy = forwardProxy.origin.replace('http://', 'http://alice:s3cret@')
    const config = resolveNetworkConfig({ settings: { network: { httpProxy: proxy } }, env: {} })
    const response = await createHttpClient({ config }).request({ url: `${origin.origin}/via-proxy` })
    expect(response.body.toString()).toBe('plain /via-proxy')
    expect(forwardProxy.requests.slice(before)).toHaveLength(1)
    const seen = forwardProxy.requests.at(-1)!
    expect(seen.url).toBe(`${origin.origin}/via-proxy`)
    expect(seen.headers['proxy-authorization']).toBe(
      `Basic ${Buffer.from('alice:s3cret').toString('base64')}`,
    )
    expect(response.route).toMatchObject({ route: 'proxy', source: 'network.httpProxy' })
    expect(response.route.proxy).not.toContain('s3cret')
  })

  it('tunnels https:// through a CONNECT proxy and trusts the custom CA from caCertFile', async () => {
    const config = resolveNetworkConfig({
      settings: { network: { caCertFile: certs.caFile } },
      env: { SHELLGATE_HTTP_PROXY: connectProxy.url },
    })
    const response = await createHttpClient({ config }).request({ url: `${tlsOrigin.origin}/tunnel` })
    expect(response.body.toString()).toBe('secure /tunnel')
    expect(connectProxy.tunnels.at(-1)?.target).toBe(`127.0.0.1:${tlsOrigin.port}`)
    expect(response.route).toMatchObject({ route: 'proxy', source: 'SHELLGATE_HTTP_PROXY' })
  })

  it('goes through a SOCKS5 proxy for http:// and https://', async () => {
    const config = resolveNetworkConfig({
      env: { SHELLGATE_HTTP_PROXY: socksProxy.url, SHELLGATE_CA_CERT: certs.caFile },
    })
    const client = createHttpClient({ config })
    expect((await client.request({ url: `${origin.origin}/socks` })).body.toString()).toBe('plain /socks')
    expect((await client.request({ url: `${tlsOrigin.origin}/socks` })).body.toString()).toBe('secure /socks')
    expect(socksProxy.connects).toEqual([`127.0.0.1:${origin.port}`, `127.0.0.1:${tlsOrigin.port}`])
  })

  it('reaches an https server with a self-signed CA directly, and fails without the CA', async () => {
    const withCa = resolveNetworkConfig({ settings: { network: { caCertFile: certs.caFile } }, env: {} })
    const response = await createHttpClient({ config: withCa }).request({ url: `${tlsOrigin.origin}/ca` })
    expect(response.body.toString()).toBe('secure /ca')
    const withoutCa = createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
    await expect(withoutCa.request({ url: `${tlsOrigin.origin}/ca` })).rejects.toMatchObject({
      code: 'network',
    })
  })

  it('keeps Node roots next to the custom CA (the CA adds trust, it does not replace it)', async () => {
    const { createCaLoader } = await import('../../../../src/main/core/network/ca-certificate')
    const { rootCertificates } = await import('node:tls')
    const bundle = createCaLoader({ value: certs.caFile, source: 'network.caCertFile' })()!
    expect(bundle).toHaveLength(rootCertificates.length + 1)
  })

  it('skips the proxy for NO_PROXY hosts', async () => {
    const before = forwardProxy.requests.length
    const config = resolveNetworkConfig({
      env: { SHELLGATE_HTTP_PROXY: forwardProxy.origin, SHELLGATE_NO_PROXY: `127.0.0.1:${origin.port}` },
    })
    const response = await createHttpClient({ config }).request({ url: `${origin.origin}/bypass` })
    expect(response.body.toString()).toBe('plain /bypass')
    expect(response.route).toMatchObject({
      route: 'direct',
      rule: 'no_proxy',
      pattern: `127.0.0.1:${origin.port}`,
    })
    expect(forwardProxy.requests.length).toBe(before)
  })

  it('uses the sealed user proxy only for a client that opts into the fallback', async () => {
    const env = { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: JSON.stringify({ HTTP_PROXY: forwardProxy.origin }) }
    const config = resolveNetworkConfig({ env })
    const before = forwardProxy.requests.length
    await createHttpClient({ config }).request({ url: `${origin.origin}/model` })
    expect(forwardProxy.requests.length).toBe(before)
    const webFetch = await createHttpClient({ config, sealedFallback: true }).request({
      url: `${origin.origin}/web`,
    })
    expect(webFetch.body.toString()).toBe('plain /web')
    expect(forwardProxy.requests.length).toBe(before + 1)
    expect(webFetch.route).toMatchObject({ rule: 'sealed_proxy', source: 'HTTP_PROXY (sealed)' })
  })

  it('reads the CA file once per client', async () => {
    const caCopy = join(dir, 'ca-copy.pem')
    const { copyFileSync } = await import('node:fs')
    copyFileSync(certs.caFile, caCopy)
    const config = resolveNetworkConfig({ settings: { network: { caCertFile: caCopy } }, env: {} })
    const client = createHttpClient({ config })
    await client.request({ url: `${tlsOrigin.origin}/first` })
    rmSync(caCopy)
    const second = await client.request({ url: `${tlsOrigin.origin}/second` })
    expect(second.body.toString()).toBe('secure /second')
  })
})
