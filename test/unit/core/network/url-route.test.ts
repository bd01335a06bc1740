import { describe, expect, it } from 'vitest'
import { describeUrlRoute } from '../../../../src/main/core/network/url-route'

const sealed = (values: Record<string, string>) => JSON.stringify(values)

describe('describeUrlRoute (Settings → Network: where will this URL go?)', () => {
  it('goes direct with nothing configured', () => {
    expect(describeUrlRoute({ url: 'https://example.com/', env: {} })).toEqual({
      route: 'direct',
      proxy: null,
      rule: 'no_proxy_configured',
      source: null,
      reason: 'direct: no proxy is configured',
    })
  })

  it('checks noProxy first, then network.httpProxy, then SHELLGATE_HTTP_PROXY', () => {
    const settings = { network: { httpProxy: 'http://settings.proxy:3128', noProxy: '.internal.test' } }
    const env = { SHELLGATE_HTTP_PROXY: 'http://env.proxy:8080' }
    expect(describeUrlRoute({ url: 'http://git.internal.test/', settings, env })).toMatchObject({
      route: 'direct',
      rule: 'no_proxy',
      source: 'network.noProxy',
      pattern: '.internal.test',
    })
    expect(describeUrlRoute({ url: 'http://example.com/', settings, env })).toMatchObject({
      route: 'proxy',
      proxy: 'http://settings.proxy:3128',
      rule: 'proxy_setting',
      source: 'network.httpProxy',
    })
    expect(describeUrlRoute({ url: 'http://example.com/', env })).toMatchObject({
      route: 'proxy',
      proxy: 'http://env.proxy:8080',
      source: 'SHELLGATE_HTTP_PROXY',
    })
  })

  it('redacts proxy credentials everywhere in the answer', () => {
    const route = describeUrlRoute({
      url: 'https://example.com/',
      env: { SHELLGATE_HTTP_PROXY: 'http://alice:pa55word@proxy.test:3128' },
    })
    expect(route.proxy).toBe('http://***@proxy.test:3128')
    expect(JSON.stringify(route)).not.toMatch(/alice|pa55word/)
  })

  it('ignores the sealed user proxies unless the client opts into the fallback', () => {
    const env = { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: sealed({ HTTPS_PROXY: 'http://user.proxy:1' }) }
    expect(describeUrlRoute({ url: 'https://example.com/', env })).toMatchObject({ route: 'direct' })
    expect(describeUrlRoute({ url: 'https://example.com/', env, sealedFallback: true })).toMatchObject({
      route: 'proxy',
      proxy: 'http://user.proxy:1',
      rule: 'sealed_proxy',
      source: 'HTTPS_PROXY (sealed)',
    })
  })

  it('uses the sealed variables in the seed order: https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY, all_proxy', () => {
    const order = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY']
    for (let i = 0; i < order.length; i++) {
      const values = Object.fromEntries(order.slice(i).map((name, n) => [name, `http://p${i + n}.test:1`]))
      const env = { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: sealed(values) }
      const route = describeUrlRoute({ url: 'http://example.com/', env, sealedFallback: true })
      expect(route.source).toBe(`${order[i]} (sealed)`)
    }
  })

  it('lets our settings win over the sealed proxy, and the sealed NO_PROXY apply only to it', () => {
    const env = {
      SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: sealed({
        https_proxy: 'http://user.proxy:1',
        no_proxy: '.corp.test',
      }),
    }
    expect(describeUrlRoute({ url: 'https://x.corp.test/', env, sealedFallback: true })).toMatchObject({
      route: 'direct',
      rule: 'sealed_no_proxy',
      source: 'no_proxy (sealed)',
      pattern: '.corp.test',
    })
    const withSetting = { ...env, SHELLGATE_HTTP_PROXY: 'http://ours.test:2' }
    expect(
      describeUrlRoute({ url: 'https://x.corp.test/', env: withSetting, sealedFallback: true }),
    ).toMatchObject({
      route: 'proxy',
      proxy: 'http://ours.test:2',
      source: 'SHELLGATE_HTTP_PROXY',
    })
  })

  it('never routes the public policy through a proxy, and refuses private literals up front', () => {
    const env = { SHELLGATE_HTTP_PROXY: 'http://proxy.test:1' }
    expect(describeUrlRoute({ url: 'https://example.com/', env, egressPolicy: 'public' })).toMatchObject({
      route: 'direct',
      proxy: null,
      rule: 'public_egress',
    })
    expect(describeUrlRoute({ url: 'http://0x7f.1/', env, egressPolicy: 'public' })).toMatchObject({
      route: 'rejected',
      rule: 'blocked_destination',
      reason: expect.stringContaining('127.0.0.1 is a loopback address'),
    })
  })

  it.each([
    ['ftp://example.com/', 'invalid_url', 'url', 'unsupported scheme "ftp:"'],
    ['https://user:pw@example.com/', 'invalid_url', 'url', 'credentials in the URL are not allowed'],
    ['example.com', 'invalid_url', 'url', 'is not an absolute URL'],
  ])('rejects %s as %s', (url, rule, source, reason) => {
    const route = describeUrlRoute({ url, env: {} })
    expect(route).toMatchObject({ route: 'rejected', rule, source, reason: expect.stringContaining(reason) })
    expect(JSON.stringify(route)).not.toContain(':pw@')
  })

  it('rejects with the setting named when the config is unusable', () => {
    expect(
      describeUrlRoute({ url: 'https://example.com/', env: { SHELLGATE_HTTP_PROXY: 'gopher://x' } }),
    ).toMatchObject({
      route: 'rejected',
      rule: 'invalid_config',
      source: 'SHELLGATE_HTTP_PROXY',
    })
    const env = { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: sealed({ HTTPS_PROXY: 'gopher://x' }) }
    expect(describeUrlRoute({ url: 'https://example.com/', env, sealedFallback: true })).toMatchObject({
      route: 'rejected',
      rule: 'invalid_config',
      source: 'HTTPS_PROXY (sealed)',
    })
  })
})
