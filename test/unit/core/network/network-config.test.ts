import { describe, expect, it } from 'vitest'
import { NetworkConfigError } from '../../../../src/main/core/network/network-error'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'

function configError(run: () => unknown): NetworkConfigError {
  try {
    run()
  } catch (error) {
    if (error instanceof NetworkConfigError) return error
    throw error
  }
  throw new Error('expected a NetworkConfigError')
}

describe('resolveNetworkConfig', () => {
  it('has no proxy, no CA and the seed default timeout when nothing is configured', () => {
    const config = resolveNetworkConfig({ env: {} })
    expect(config.proxy).toBeNull()
    expect(config.noProxy).toBeNull()
    expect(config.caCertFile).toBeNull()
    // The seed's 180 s, as the resolved value rather than the constant it is read from.
    expect(config.timeoutMs).toEqual({ value: 180_000, source: 'default' })
  })

  it('takes settings before SHELLGATE_* variables and records where each value came from', () => {
    const config = resolveNetworkConfig({
      settings: {
        network: {
          httpProxy: 'http://settings:3128',
          noProxy: 'a.test',
          caCertFile: '/s/ca.pem',
          timeoutMs: 5_000,
        },
      },
      env: {
        SHELLGATE_HTTP_PROXY: 'http://env:3128',
        SHELLGATE_NO_PROXY: 'b.test',
        SHELLGATE_CA_CERT: '/e/ca.pem',
        SHELLGATE_HTTP_TIMEOUT: '9000',
      },
    })
    expect(config.proxy).toEqual({ value: 'http://settings:3128', source: 'network.httpProxy' })
    expect(config.noProxy?.source).toBe('network.noProxy')
    expect(config.noProxy?.value.map((p) => p.text)).toEqual(['a.test'])
    expect(config.caCertFile).toEqual({ value: '/s/ca.pem', source: 'network.caCertFile' })
    expect(config.timeoutMs).toEqual({ value: 5_000, source: 'network.timeoutMs' })
  })

  it('falls back to the variables, ignores blank settings and adds http:// to a bare host:port', () => {
    const config = resolveNetworkConfig({
      settings: { network: { httpProxy: '  ', noProxy: '' } },
      env: {
        SHELLGATE_HTTP_PROXY: 'proxy.corp:3128',
        SHELLGATE_NO_PROXY: '.corp, localhost',
        SHELLGATE_AGENT_CA_CERT: '/e/ca.pem',
        SHELLGATE_TIMEOUT: '7000',
      },
    })
    expect(config.proxy).toEqual({ value: 'http://proxy.corp:3128', source: 'SHELLGATE_HTTP_PROXY' })
    expect(config.noProxy?.value.map((p) => p.text)).toEqual(['.corp', 'localhost'])
    expect(config.caCertFile).toEqual({ value: '/e/ca.pem', source: 'SHELLGATE_AGENT_CA_CERT' })
    expect(config.timeoutMs).toEqual({ value: 7_000, source: 'SHELLGATE_TIMEOUT' })
  })

  it('prefers SHELLGATE_HTTP_TIMEOUT over SHELLGATE_TIMEOUT', () => {
    const config = resolveNetworkConfig({ env: { SHELLGATE_HTTP_TIMEOUT: '100', SHELLGATE_TIMEOUT: '200' } })
    expect(config.timeoutMs).toEqual({ value: 100, source: 'SHELLGATE_HTTP_TIMEOUT' })
  })

  it.each([
    ['http://exa mple:80', 'is not a URL'],
    ['http://', 'is not a URL'],
    ['ftp://proxy:21', 'unsupported proxy scheme "ftp:"'],
    ['pac+http://host/proxy.pac', 'unsupported proxy scheme'],
    ['http://proxy:3128/path', 'without a path'],
  ])('refuses the proxy %s and names the setting', (value, message) => {
    const error = configError(() =>
      resolveNetworkConfig({ settings: { network: { httpProxy: value } }, env: {} }),
    )
    expect(error.setting).toBe('network.httpProxy')
    expect(error.message).toContain('network.httpProxy: ')
    expect(error.message).toContain(message)
  })

  it('never echoes proxy credentials in an error', () => {
    const error = configError(() =>
      resolveNetworkConfig({ env: { SHELLGATE_HTTP_PROXY: 'http://user:s3cret@exa mple:80' } }),
    )
    expect(error.setting).toBe('SHELLGATE_HTTP_PROXY')
    expect(error.message).not.toContain('s3cret')
  })

  it.each([
    [{ SHELLGATE_HTTP_TIMEOUT: 'soon' }, 'SHELLGATE_HTTP_TIMEOUT', 'not a whole number'],
    [{ SHELLGATE_HTTP_TIMEOUT: '0' }, 'SHELLGATE_HTTP_TIMEOUT', 'between 1 and 3600000'],
    [{ SHELLGATE_TIMEOUT: '99999999' }, 'SHELLGATE_TIMEOUT', 'between 1 and 3600000'],
    [
      { SHELLGATE_NO_PROXY: 'ok.test, http://bad/' },
      'SHELLGATE_NO_PROXY',
      '"http://bad/" is not a NO_PROXY entry',
    ],
    [{ SHELLGATE_NO_PROXY: 'host:99999' }, 'SHELLGATE_NO_PROXY', '"host:99999"'],
  ])('refuses %o naming %s', (env, setting, message) => {
    const error = configError(() => resolveNetworkConfig({ env }))
    expect(error.setting).toBe(setting)
    expect(error.message).toContain(message)
  })

  it('reads the sealed user proxies in the seed order and ignores a malformed seal', () => {
    const sealed = JSON.stringify({
      HTTP_PROXY: 'http://h:1',
      https_proxy: 'http://lower:2',
      NO_PROXY: 'x.test',
    })
    const config = resolveNetworkConfig({ env: { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: sealed } })
    expect(config.sealed.proxy).toEqual({ name: 'https_proxy', value: 'http://lower:2' })
    expect(config.sealed.noProxy).toEqual({ name: 'NO_PROXY', value: 'x.test' })
    for (const broken of ['{', '[1]', '"text"', '{"HTTPS_PROXY": 3}', 'null']) {
      const config = resolveNetworkConfig({ env: { SHELLGATE_TOOL_ENV_PASSTHROUGH_JSON: broken } })
      expect(config.sealed).toEqual({ proxy: null, noProxy: null })
    }
  })
})
