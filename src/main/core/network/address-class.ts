import ipaddr from 'ipaddr.js'

export type AddressVerdict =
  | { public: true; address: string; family: 4 | 6 }
  | { public: false; address: string; range: string; reason: string }

/** Why a range is refused, in words a user reading an error can act on. */
const RANGE_REASONS: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  linkLocal: 'link-local address (includes the 169.254.169.254 cloud metadata service)',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address (100.64.0.0/10)',
  private: 'private network address',
  reserved: 'reserved address',
  uniqueLocal: 'unique-local IPv6 address (fc00::/7)',
  ipv4Mapped: 'IPv4-mapped IPv6 address',
  ipv4Compatible: 'IPv4-compatible IPv6 address (::/96)',
  rfc6052: 'NAT64 address (64:ff9b::/96, 64:ff9b:1::/48)',
  rfc6145: 'IPv4-translated address',
  '6to4': '6to4 address (2002::/16)',
  teredo: 'Teredo address (2001::/32)',
  notGlobalUnicast: 'IPv6 address outside global unicast 2000::/3',
}

/**
 * Public means ipaddr.js calls it plain `unicast` (and, for IPv6, inside 2000::/3). Every other
 * range is refused, so forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) can never
 * smuggle a private one; the embedded address is named in the reason when there is one.
 */
export function classifyAddress(text: string): AddressVerdict {
  const parsed = ipaddr.parse(canonicalIPv6(text))
  const address = parsed.toString()
  const range = refusedRange(parsed)
  if (range === null) return { public: true, address, family: parsed.kind() === 'ipv4' ? 4 : 6 }
  const embedded = embeddedIPv4(parsed, range)
  const reason = `${address} is a ${RANGE_REASONS[range] ?? `${range} address`}${
    embedded ? ` embedding ${embedded} (${ipaddr.parse(embedded).range()})` : ''
  }`
  return { public: false, address, range, reason }
}

/**
 * ipaddr.js 2.5 reads `::127.0.0.1` as `::ffff:127.0.0.1`; the WHATWG URL parser (what the
 * socket layer sees) reads it as `::7f00:1`. Rewrite dotted IPv6 tails with the URL parser first.
 */
function canonicalIPv6(text: string): string {
  if (!text.includes(':') || !text.includes('.')) return text
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1)
  } catch {
    return text
  }
}

function refusedRange(parsed: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const range = parsed.range()
  if (range !== 'unicast') return range
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts
    // ::a.b.c.d is deprecated but still routed to IPv4 by some stacks; ipaddr.js calls it unicast.
    if (parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible'
    if ((parts[0]! & 0xe000) !== 0x2000) return 'notGlobalUnicast'
  }
  return null
}

function embeddedIPv4(parsed: ipaddr.IPv4 | ipaddr.IPv6, range: string): string | null {
  if (parsed.kind() !== 'ipv6') return null
  const parts = (parsed as ipaddr.IPv6).parts
  const fromParts = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
  switch (range) {
    case 'ipv4Mapped':
    case 'ipv4Compatible':
    case 'rfc6145':
      return fromParts(parts[6]!, parts[7]!)
    case 'rfc6052':
      // Only the well-known /96 prefix keeps the IPv4 address in the last 32 bits.
      return parts.slice(2, 6).every((part) => part === 0) && parts[1] === 0xff9b
        ? fromParts(parts[6]!, parts[7]!)
        : null
    case '6to4':
      return fromParts(parts[1]!, parts[2]!)
    case 'teredo':
      // Teredo stores the client's IPv4 address inverted in the last 32 bits.
      return fromParts(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)
    default:
      return null
  }
}
