import { type NetworkConfigInput, resolveNetworkConfig } from './network-config'
import { NetworkConfigError } from './network-error'
import { type ProxyRoute, type ProxyRule, resolveProxyRoute } from './proxy-route'
import { redactProxyUrl } from './proxy-url'
import { checkPublicHostLiteral } from './public-egress-policy'
import { parseRequestUrl } from './request-url'

export type EgressPolicy = 'default' | 'public'

export type RouteRule =
  | ProxyRule
  /** Public egress policy: always direct to a vetted address, never a proxy. */
  | 'public_egress'
  /** The public policy refused the destination. */
  | 'blocked_destination'
  | 'invalid_url'
  | 'invalid_config'

/** "Where will this URL go?" — the answer the Settings → Network screen and `net resolve` show. */
export interface UrlRoute {
  route: 'proxy' | 'direct' | 'rejected'
  /** The proxy with credentials redacted; null unless route is 'proxy'. */
  proxy: string | null
  rule: RouteRule
  /** The setting or variable that decided, e.g. "network.noProxy"; null when nothing is configured. */
  source: string | null
  /** The NO_PROXY entry that matched, for the no_proxy rules. */
  pattern?: string
  /** One sentence for a person. */
  reason: string
}

export interface DescribeUrlRouteInput extends NetworkConfigInput {
  url: string
  egressPolicy?: EgressPolicy
  /** Describe a web-fetch kind client, which falls back to the user's sealed shell proxies. */
  sealedFallback?: boolean
}

/**
 * Pure and synchronous: no DNS, no files, no traffic. Under the public policy a name still has to
 * pass DNS vetting at request time; literals and forbidden names are refused here already.
 */
export function describeUrlRoute(input: DescribeUrlRouteInput): UrlRoute {
  let url: URL
  try {
    url = parseRequestUrl(input.url)
  } catch (error) {
    return rejected('invalid_url', error)
  }
  try {
    const config = resolveNetworkConfig(input)
    if (input.egressPolicy === 'public') {
      const literal = checkPublicHostLiteral(url)
      if (literal && !literal.allowed) {
        return {
          route: 'rejected',
          proxy: null,
          rule: 'blocked_destination',
          source: 'egressPolicy',
          reason: literal.reason,
        }
      }
      return publicRoute()
    }
    return describeProxyRoute(resolveProxyRoute(url, config, { sealedFallback: input.sealedFallback }))
  } catch (error) {
    return rejected('invalid_config', error)
  }
}

export function publicRoute(): UrlRoute {
  return {
    route: 'direct',
    proxy: null,
    rule: 'public_egress',
    source: 'egressPolicy',
    reason: 'public egress policy: direct to the DNS-vetted address, never through a proxy',
  }
}

/** A ProxyRoute as shown to people: credentials redacted, with a sentence saying why. */
export function describeProxyRoute(route: ProxyRoute): UrlRoute {
  const proxy = route.proxyUrl === null ? null : redactProxyUrl(route.proxyUrl)
  const described: UrlRoute = {
    route: route.route,
    proxy,
    rule: route.rule,
    source: route.source,
    reason: '',
  }
  if (route.pattern !== undefined) described.pattern = route.pattern
  switch (route.rule) {
    case 'no_proxy':
    case 'sealed_no_proxy':
      described.reason = `direct: matches NO_PROXY entry "${route.pattern}" from ${route.source}`
      break
    case 'proxy_setting':
    case 'sealed_proxy':
      described.reason = `through proxy ${proxy} from ${route.source}`
      break
    case 'no_proxy_configured':
      described.reason = 'direct: no proxy is configured'
      break
  }
  return described
}

function rejected(rule: 'invalid_url' | 'invalid_config', error: unknown): UrlRoute {
  if (!(error instanceof NetworkConfigError)) throw error
  return { route: 'rejected', proxy: null, rule, source: error.setting, reason: error.message }
}
