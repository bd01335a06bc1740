import ipaddr from 'ipaddr.js'
import { NetworkConfigError } from './network-error'

/**
 * One NO_PROXY entry. Semantics follow Go's net/http/httpproxy, the most widely documented table:
 * `example.com` matches the name and its subdomains, `.example.com` and `*.example.com` only the
 * subdomains, `*` everything; an optional `:port` (IPv6 in brackets) narrows the match to one port.
 */
export type NoProxyPattern =
  | { kind: 'all'; text: string }
  | { kind: 'domain'; text: string; domain: string; subdomainsOnly: boolean; port: number | null }
  | { kind: 'ip'; text: string; address: string; port: number | null }
  | { kind: 'cidr'; text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number] }

const HOST_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/

/**
 * Parses a comma- or space-separated list. `strict` throws on an entry it does not understand
 * (our own settings); lenient mode drops it (the user's sealed shell NO_PROXY, which we only read).
 */
export function parseNoProxyList(list: string, setting: string, strict = true): NoProxyPattern[] {
  const patterns: NoProxyPattern[] = []
  for (const entry of list.split(/[\s,]+/).filter((part) => part !== '')) {
    const pattern = parseEntry(entry)
    if (pattern) patterns.push(pattern)
    else if (strict) {
      throw new NetworkConfigError(
        setting,
        `"${entry}" is not a NO_PROXY entry (use *, host, .domain, *.domain, host:port, an IP, [IPv6]:port or a CIDR)`,
      )
    }
  }
  return patterns
}

function parseEntry(entry: string): NoProxyPattern | null {
  const text = entry.toLowerCase()
  if (text === '*') return { kind: 'all', text }
  if (text.includes('/')) {
    try {
      return { kind: 'cidr', text, range: ipaddr.parseCIDR(text) }
    } catch {
      return null
    }
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text)
  if (bracketed) return ipPattern(text, bracketed[1]!, bracketed[2])
  if (text.split(':').length > 2) return ipPattern(text, text, undefined)
  const [hostPart, portText] = text.split(':') as [string, string | undefined]
  if (ipaddr.IPv4.isValidFourPartDecimal(hostPart)) return ipPattern(text, hostPart, portText)
  const port = parsePort(portText)
  if (port === undefined) return null
  const subdomainsOnly = hostPart.startsWith('.') || hostPart.startsWith('*.')
  const domain = hostPart.replace(/^\*?\./, '').replace(/\.$/, '')
  if (!HOST_NAME.test(domain)) return null
  return { kind: 'domain', text, domain, subdomainsOnly, port }
}

function ipPattern(text: string, address: string, portText: string | undefined): NoProxyPattern | null {
  const port = parsePort(portText)
  if (port === undefined || !ipaddr.isValid(address)) return null
  return { kind: 'ip', text, address: ipaddr.parse(address).toNormalizedString(), port }
}

/** null for "any port", undefined for an invalid one. */
function parsePort(text: string | undefined): number | null | undefined {
  if (text === undefined) return null
  if (!/^\d{1,5}$/.test(text)) return undefined
  const port = Number(text)
  return port >= 1 && port <= 65_535 ? port : undefined
}

/** The first entry that sends this URL direct, or null. */
export function findNoProxyMatch(url: URL, patterns: readonly NoProxyPattern[]): NoProxyPattern | null {
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  const ip = ipaddr.isValid(host) ? ipaddr.parse(host) : null
  return patterns.find((pattern) => matches(pattern, host, port, ip)) ?? null
}

function matches(
  pattern: NoProxyPattern,
  host: string,
  port: number,
  ip: ipaddr.IPv4 | ipaddr.IPv6 | null,
): boolean {
  switch (pattern.kind) {
    case 'all':
      return true
    case 'cidr':
      return ip !== null && ip.kind() === pattern.range[0].kind() && ip.match(pattern.range)
    case 'ip':
      return ip !== null && ip.toNormalizedString() === pattern.address && portMatches(pattern.port, port)
    case 'domain': {
      if (!portMatches(pattern.port, port)) return false
      if (host.endsWith(`.${pattern.domain}`)) return true
      return !pattern.subdomainsOnly && host === pattern.domain
    }
  }
}

function portMatches(wanted: number | null, port: number): boolean {
  return wanted === null || wanted === port
}
