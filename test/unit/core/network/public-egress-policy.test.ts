import { describe, expect, it } from 'vitest'
import { classifyAddress } from '../../../../src/main/core/network/address-class'
import type { HostResolver } from '../../../../src/main/core/network/host-resolver'
import {
  checkPublicHostLiteral,
  vetPublicDestination,
} from '../../../../src/main/core/network/public-egress-policy'

/** A resolver that answers from a table and records every name it was asked about. */
function tableResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = []
  const resolver = async (hostname: string) => {
    asked.push(hostname)
    return (table[hostname] ?? []).map(
      (address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const,
    )
  }
  return Object.assign(resolver, { asked })
}

/** [address, range ipaddr.js gives it]: every non-public form the issue lists, IPv4 and IPv6. */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['fe80::1', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ['::ffff:8.8.8.8', 'ipv4Mapped'],
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::7f00:1', 'ipv4Compatible'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['64:ff9b::a9fe:a9fe', 'rfc6052'],
  ['64:ff9b:1::1', 'rfc6052'],
  ['2002:7f00:1::1', '6to4'],
  ['2002:c0a8:101::1', '6to4'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['4000::1', 'notGlobalUnicast'],
]

describe('classifyAddress', () => {
  it.each(REFUSED)('refuses %s (%s)', (address, range) => {
    const verdict = classifyAddress(address)
    expect(verdict).toMatchObject({ public: false, range })
  })

  it('names the IPv4 address hidden inside mapped, NAT64 and 6to4 forms', () => {
    expect(classifyAddress('::ffff:10.0.0.1')).toMatchObject({
      reason: expect.stringContaining('embedding 10.0.0.1 (private)'),
    })
    expect(classifyAddress('64:ff9b::7f00:1')).toMatchObject({
      reason: expect.stringContaining('embedding 127.0.0.1 (loopback)'),
    })
    expect(classifyAddress('2002:a9fe:a9fe::')).toMatchObject({
      reason: expect.stringContaining('embedding 169.254.169.254 (linkLocal)'),
    })
    expect(classifyAddress('169.254.169.254')).toMatchObject({
      reason: expect.stringContaining('cloud metadata'),
    })
  })

  it.each([
    ['8.8.8.8', 4],
    ['93.184.216.34', 4],
    ['2606:4700:4700::1111', 6],
  ])('accepts the public unicast address %s', (address, family) => {
    expect(classifyAddress(address)).toEqual({ public: true, address, family })
  })
})

describe('public egress: host literals', () => {
  it.each([
    'http://localhost/',
    'http://LOCALHOST./',
    'http://api.localhost/',
    'http://printer.local/',
    'http://printer.local./',
    'http://127.0.0.1/',
    'http://127.1/',
    'http://0x7f.0.0.1/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://2130706433/',
    'http://0/',
    'http://[::1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:7f00:1::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9.0xfe.0xa9.0xfe/',
    'http://2852039166/',
    'http://10.1/',
  ])('refuses %s without asking DNS', (url) => {
    const verdict = checkPublicHostLiteral(new URL(url))
    expect(verdict).toMatchObject({ allowed: false })
  })

  it('accepts a public literal and pins it, and leaves names to DNS', () => {
    expect(checkPublicHostLiteral(new URL('https://8.8.8.8/'))).toEqual({
      allowed: true,
      destination: { hostname: '8.8.8.8', address: '8.8.8.8', family: 4 },
    })
    expect(checkPublicHostLiteral(new URL('https://example.com/'))).toBeNull()
  })
})

describe('public egress: names through the injected resolver', () => {
  it('refuses a name when any of its answers is not public', async () => {
    const resolver = tableResolver({
      'rebind.test': ['93.184.216.34', '127.0.0.1'],
      'meta.test': ['169.254.169.254'],
      'v6.test': ['2606:4700::1', 'fd00::1'],
      'mapped.test': ['::ffff:192.168.0.1'],
    })
    for (const name of ['rebind.test', 'meta.test', 'v6.test', 'mapped.test']) {
      const verdict = await vetPublicDestination(new URL(`https://${name}/`), resolver)
      expect(verdict).toMatchObject({
        allowed: false,
        reason: expect.stringContaining(`"${name}" resolves to`),
      })
    }
  })

  it('refuses a name with no answers or a non-address answer', async () => {
    const resolver = tableResolver({ 'weird.test': ['not-an-ip'] })
    await expect(vetPublicDestination(new URL('https://empty.test/'), resolver)).resolves.toMatchObject({
      allowed: false,
      reason: '"empty.test" resolved to no address',
    })
    await expect(vetPublicDestination(new URL('https://weird.test/'), resolver)).resolves.toMatchObject({
      allowed: false,
    })
  })

  it('pins the first vetted answer, resolving exactly once, and never resolves forbidden names', async () => {
    const resolver = tableResolver({ 'ok.test': ['93.184.216.34', '2606:4700::1'], localhost: ['8.8.8.8'] })
    await expect(vetPublicDestination(new URL('https://OK.test./x'), resolver)).resolves.toEqual({
      allowed: true,
      destination: { hostname: 'ok.test', address: '93.184.216.34', family: 4 },
    })
    await expect(vetPublicDestination(new URL('https://localhost/'), resolver)).resolves.toMatchObject({
      allowed: false,
    })
    expect(resolver.asked).toEqual(['ok.test'])
  })
})
