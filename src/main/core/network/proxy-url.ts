import { NetworkConfigError } from './network-error'

/** What proxy-agent can speak; PAC is left out because a PAC script is code fetched from elsewhere. */
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks:', 'socks4:', 'socks4a:', 'socks5:', 'socks5h:'])

/**
 * Validates a proxy setting and returns it as a full URL. A value without a scheme gets `http://`,
 * as the subprocess environment does (seed 000), so `proxy.corp:3128` means the same everywhere.
 */
export function parseProxyUrl(raw: string, setting: string): string {
  const value = raw.trim()
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new NetworkConfigError(
      setting,
      `"${redactProxyUrl(value)}" is not a URL (expected http://host:port)`,
    )
  }
  if (!PROXY_SCHEMES.has(url.protocol)) {
    throw new NetworkConfigError(
      setting,
      `unsupported proxy scheme "${url.protocol}" (use http, https, socks4, socks4a, socks5 or socks5h)`,
    )
  }
  if (url.hostname === '') throw new NetworkConfigError(setting, 'the proxy URL has no host')
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new NetworkConfigError(setting, 'a proxy URL is scheme://host:port only, without a path or query')
  }
  return url.href.replace(/\/$/, '')
}

/** The proxy URL with any user name and password replaced, safe to print or show in the UI. */
export function redactProxyUrl(proxy: string): string {
  try {
    const url = new URL(proxy)
    if (url.username === '' && url.password === '') return proxy
    url.username = '***'
    url.password = ''
    return url.href.replace(/\/$/, '')
  } catch {
    // Not a URL: hide anything that looks like userinfo before the last "@".
    return proxy.replace(
      /^([a-z][a-z0-9+.-]*:\/\/)?[^@/]*@/i,
      (_m, scheme: string | undefined) => `${scheme ?? ''}***@`,
    )
  }
}
