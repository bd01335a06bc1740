import { isDomainPattern } from '../../../shared/settings'

/** A host name as the proxy compares it: lower case, without a trailing dot or IPv6 brackets. */
export function normaliseHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
}

/**
 * `*.example.com` admits subdomains at any depth, never example.com itself nor evilexample.com (the
 * dot is part of the suffix); any other pattern is an exact name. A pattern that is not a domain
 * admits nothing.
 */
export function matchesDomainPattern(host: string, pattern: string): boolean {
  const entry = normaliseHost(pattern)
  if (!isDomainPattern(entry)) return false
  const name = normaliseHost(host)
  if (entry.startsWith('*.')) return name.endsWith(entry.slice(1))
  return name === entry
}

export function onList(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesDomainPattern(host, pattern))
}

/**
 * The patterns an "always allow" card offers for a host, narrowest first: the name itself, then
 * `*.` and its parent while the parent keeps two labels (never `*.com`).
 */
export function suggestedPatterns(host: string): string[] {
  const name = normaliseHost(host)
  if (!isDomainPattern(name) || name.startsWith('*.')) return []
  const labels = name.split('.')
  const suggestions = [name]
  if (labels.length >= 3) suggestions.push(`*.${labels.slice(1).join('.')}`)
  return suggestions
}

/** Why a pattern may not be saved from a card for `host`, or null: it must admit the host and not a whole public suffix. */
export function patternProblem(pattern: string, host: string): string | null {
  const entry = normaliseHost(pattern)
  if (!isDomainPattern(entry)) {
    return `"${pattern}" is not a domain pattern (write a host name such as registry.npmjs.org, or *.npmjs.org for its subdomains)`
  }
  if (!matchesDomainPattern(host, entry)) return `"${pattern}" does not match ${normaliseHost(host)}`
  if (entry.startsWith('*.') && entry.split('.').length < 3) {
    return `"${pattern}" would admit every site under .${entry.slice(2)}; name the site (e.g. *.example.${entry.slice(2)})`
  }
  return null
}
