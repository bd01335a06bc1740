import type { NetworkConfig } from './network-config'
import { findNoProxyMatch, parseNoProxyList } from './no-proxy'
import { parseProxyUrl } from './proxy-url'

/** Which rule decided a route; stable strings, shown in the CLI and the Settings screen. */
export type ProxyRule =
  /** A noProxy entry from our settings or SHELLGATE_NO_PROXY matched. */
  | 'no_proxy'
  /** network.httpProxy or SHELLGATE_HTTP_PROXY. */
  | 'proxy_setting'
  /** The user's sealed NO_PROXY matched (web-fetch fallback only). */
  | 'sealed_no_proxy'
  /** The user's sealed shell proxy (web-fetch fallback only). */
  | 'sealed_proxy'
  | 'no_proxy_configured'

export interface ProxyRoute {
  route: 'proxy' | 'direct'
  /** Full URL with credentials; null when direct. Redact before display. */
  proxyUrl: string | null
  rule: ProxyRule
  /** The setting or variable behind the rule; null when nothing is configured. */
  source: string | null
  /** The NO_PROXY entry that matched, for the no_proxy rules. */
  pattern?: string
}

export interface ProxyRouteOptions {
  /** Web-fetch kind clients fall back to the user's sealed shell proxies (seed 000); nothing else does. */
  sealedFallback?: boolean
}

/**
 * Seed 000 order: noProxy first, then network.httpProxy, then SHELLGATE_HTTP_PROXY (both already
 * folded into config.proxy), then — only for opted-in clients — the sealed proxies with their own
 * original NO_PROXY. Throws NetworkConfigError when the chosen sealed value is not a proxy URL.
 */
export function resolveProxyRoute(
  url: URL,
  config: NetworkConfig,
  options: ProxyRouteOptions = {},
): ProxyRoute {
  if (config.noProxy) {
    const match = findNoProxyMatch(url, config.noProxy.value)
    if (match)
      return {
        route: 'direct',
        proxyUrl: null,
        rule: 'no_proxy',
        source: config.noProxy.source,
        pattern: match.text,
      }
  }
  if (config.proxy) {
    return {
      route: 'proxy',
      proxyUrl: config.proxy.value,
      rule: 'proxy_setting',
      source: config.proxy.source,
    }
  }
  const sealed = config.sealed
  if (options.sealedFallback && sealed.proxy) {
    const source = `${sealed.proxy.name} (sealed)`
    if (sealed.noProxy) {
      const patterns = parseNoProxyList(sealed.noProxy.value, `${sealed.noProxy.name} (sealed)`, false)
      const match = findNoProxyMatch(url, patterns)
      if (match) {
        return {
          route: 'direct',
          proxyUrl: null,
          rule: 'sealed_no_proxy',
          source: `${sealed.noProxy.name} (sealed)`,
          pattern: match.text,
        }
      }
    }
    return {
      route: 'proxy',
      proxyUrl: parseProxyUrl(sealed.proxy.value, source),
      rule: 'sealed_proxy',
      source,
    }
  }
  return { route: 'direct', proxyUrl: null, rule: 'no_proxy_configured', source: null }
}
