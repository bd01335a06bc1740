import ipaddr from 'ipaddr.js'
import { classifyAddress } from './address-class'
import type { HostResolver, ResolvedAddress } from './host-resolver'

/** The destination a public-policy request will connect to, and nothing else. */
export interface VettedDestination {
  hostname: string
  address: string
  family: 4 | 6
}

export type EgressVerdict =
  | { allowed: true; destination: VettedDestination }
  | { allowed: false; reason: string }

/** Host names that name this machine or its link by convention, before any DNS is asked. */
function forbiddenName(hostname: string): string | null {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return `"${hostname}" names this machine`
  if (hostname === 'local' || hostname.endsWith('.local')) return `"${hostname}" is a .local (mDNS) name`
  return null
}

/** The URL host without brackets or a trailing dot, lower-cased. */
export function bareHostname(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
}

/**
 * What can be decided without DNS: forbidden names, and IP literals. The URL parser has already
 * turned 127.1, 0x7f.1, 0177.0.0.1 and 2130706433 into dotted decimal, so one check covers them.
 * Returns null when the host is a name that must be resolved.
 */
export function checkPublicHostLiteral(url: URL): EgressVerdict | null {
  const hostname = bareHostname(url)
  const named = forbiddenName(hostname)
  if (named) return { allowed: false, reason: named }
  if (!ipaddr.isValid(hostname)) return null
  const verdict = classifyAddress(hostname)
  if (!verdict.public) return { allowed: false, reason: verdict.reason }
  return { allowed: true, destination: { hostname, address: verdict.address, family: verdict.family } }
}

/**
 * Seed 000 public egress: resolve first, refuse the host if ANY answer is not public (an attacker
 * controls which answer a later lookup returns), then pin the connection to the vetted address.
 */
export async function vetPublicDestination(url: URL, resolver: HostResolver): Promise<EgressVerdict> {
  const literal = checkPublicHostLiteral(url)
  if (literal) return literal
  const hostname = bareHostname(url)
  const answers: ResolvedAddress[] = await resolver(hostname)
  if (answers.length === 0) return { allowed: false, reason: `"${hostname}" resolved to no address` }
  for (const answer of answers) {
    if (!ipaddr.isValid(answer.address)) {
      return {
        allowed: false,
        reason: `"${hostname}" resolved to "${answer.address}", which is not an IP address`,
      }
    }
    const verdict = classifyAddress(answer.address)
    if (!verdict.public) return { allowed: false, reason: `"${hostname}" resolves to ${verdict.reason}` }
  }
  const first = classifyAddress(answers[0]!.address)
  if (!first.public) return { allowed: false, reason: first.reason }
  return { allowed: true, destination: { hostname, address: first.address, family: first.family } }
}
