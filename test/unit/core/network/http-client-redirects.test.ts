import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient } from '../../../../src/main/core/network/http-client'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'
import { startForwardProxy } from '../../../fixtures/network/forward-proxy'
import { startHttpServer, type TestServer } from '../../../fixtures/network/http-server'

let server: TestServer
let proxy: TestServer

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const to = url.searchParams.get('to')
    if (url.pathname === '/redirect' && to) {
      response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end()
      return
    }
    if (url.pathname === '/loop') {
      response.writeHead(302, { location: '/loop' }).end()
      return
    }
    response.end(`${request.method} ${url.pathname} auth=${request.headers.authorization ?? '-'}`)
  })
  proxy = await startForwardProxy()
})

afterAll(async () => {
  await Promise.all([server.close(), proxy.close()])
})

const direct = () => createHttpClient({ config: resolveNetworkConfig({ env: {} }) })
const redirect = (to: string, status = 302) =>
  `${server.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`

describe('redirects', () => {
  it('are not followed by default: the 3xx comes back as the response', async () => {
    const before = server.requests.length
    const response = await direct().request({ url: redirect('/target') })
    expect(response.status).toBe(302)
    expect(response.headers.location).toBe('/target')
    expect(response.redirects).toEqual([])
    expect(server.requests.length).toBe(before + 1)
  })

  it('are followed when asked, keeping the trace id on every hop', async () => {
    const before = server.requests.length
    const response = await direct().request({ url: redirect('/target'), followRedirects: true })
    expect(response.status).toBe(200)
    expect(response.body.toString()).toBe('GET /target auth=-')
    expect(response.redirects).toEqual([`${server.origin}/target`])
    expect(response.url).toBe(`${server.origin}/target`)
    const hops = server.requests.slice(before)
    expect(hops.map((r) => r.headers['x-shellgate-trace-id'])).toEqual([response.traceId, response.traceId])
  })

  it('re-resolve the proxy route for every hop', async () => {
    // The first host is in NO_PROXY; the hop to "localhost" is not, so it must go through the proxy.
    const config = resolveNetworkConfig({
      env: { SHELLGATE_HTTP_PROXY: proxy.origin, SHELLGATE_NO_PROXY: '127.0.0.1' },
    })
    const before = proxy.requests.length
    const target = `http://localhost:${server.port}/proxied`
    const response = await createHttpClient({ config }).request({
      url: redirect(target),
      followRedirects: true,
    })
    expect(response.body.toString()).toBe('GET /proxied auth=-')
    expect(proxy.requests.slice(before).map((r) => r.url)).toEqual([target])
    expect(response.route).toMatchObject({ route: 'proxy', source: 'SHELLGATE_HTTP_PROXY' })
  })

  it.each([
    ['file:///etc/passwd', 'unsupported scheme "file:"'],
    ['http://user:pw@127.0.0.1/', 'credentials in the URL are not allowed'],
    ['http://[::1/', 'is not a URL'],
  ])('refuse a hop to %s without sending it', async (to, message) => {
    const before = server.requests.length
    await expect(direct().request({ url: redirect(to), followRedirects: true })).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringContaining(message),
    })
    expect(server.requests.length).toBe(before + 1)
  })

  it('stop after maxRedirects', async () => {
    await expect(
      direct().request({ url: `${server.origin}/loop`, followRedirects: true, maxRedirects: 3 }),
    ).rejects.toMatchObject({ code: 'too_many_redirects', message: 'more than 3 redirects' })
  })

  it('turn POST into GET on 303 and drop Authorization when the origin changes', async () => {
    const sameOrigin = await direct().request({
      url: redirect('/after-post', 303),
      method: 'POST',
      body: 'payload',
      headers: { Authorization: 'Bearer t0ken' },
      followRedirects: true,
    })
    expect(sameOrigin.body.toString()).toBe('GET /after-post auth=Bearer t0ken')
    const otherOrigin = await direct().request({
      url: redirect(`http://localhost:${server.port}/elsewhere`, 307),
      headers: { Authorization: 'Bearer t0ken' },
      followRedirects: true,
    })
    expect(otherOrigin.body.toString()).toBe('GET /elsewhere auth=-')
  })
})
