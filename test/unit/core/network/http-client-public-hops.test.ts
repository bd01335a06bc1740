import { describe, expect, it } from 'vitest'
import type { HopRequest, HopResponse } from '../../../../src/main/core/network/hop'
import type { HostResolver } from '../../../../src/main/core/network/host-resolver'
import { createHttpClient, type HopTransports } from '../../../../src/main/core/network/http-client'
import { resolveNetworkConfig } from '../../../../src/main/core/network/network-config'
import type { NodeHopOptions } from '../../../../src/main/core/network/node-transport'

/**
 * A public server cannot exist on this machine and no test may leave it, so these cases record
 * what the client asks its transports to do instead of connecting (DESIGN: fake only what cannot
 * exist here). The refused cases never reach a transport at all.
 */
function recordingTransports(replies: HopResponse[]) {
  const calls: { url: string; options: NodeHopOptions | 'fetch' }[] = []
  const transports: HopTransports = {
    node: async (hop: HopRequest, options: NodeHopOptions) => {
      calls.push({ url: hop.url.href, options })
      return replies.shift()!
    },
    fetch: async (hop: HopRequest) => {
      calls.push({ url: hop.url.href, options: 'fetch' })
      return replies.shift()!
    },
  }
  return { transports, calls }
}

const resolver: HostResolver = async (hostname) => {
  const table: Record<string, string> = {
    'public.test': '93.184.216.34',
    'also-public.test': '2606:4700::6810:84e5',
    'internal.test': '10.0.0.5',
  }
  const address = table[hostname]
  return address ? [{ address, family: address.includes(':') ? 6 : 4 }] : []
}

const redirectTo = (location: string): HopResponse => ({
  status: 302,
  headers: { location },
  body: Buffer.alloc(0),
})
const ok: HopResponse = { status: 200, headers: {}, body: Buffer.from('fine') }

// A proxy is configured on purpose: the public policy must connect directly all the same.
const config = resolveNetworkConfig({ env: { SHELLGATE_HTTP_PROXY: 'http://proxy.test:3128' } })

describe('public egress policy across hops', () => {
  it('connects to the vetted address, never through the configured proxy', async () => {
    const { transports, calls } = recordingTransports([ok])
    const client = createHttpClient({ config, resolver, transports })
    const response = await client.request({ url: 'https://public.test/page', egressPolicy: 'public' })
    expect(response.route).toMatchObject({ route: 'direct', proxy: null, rule: 'public_egress' })
    expect(calls).toEqual([
      {
        url: 'https://public.test/page',
        options: {
          proxyUrl: null,
          ca: undefined,
          pinned: { hostname: 'public.test', address: '93.184.216.34', family: 4 },
        },
      },
    ])
  })

  it('re-vets every redirect hop and pins each hop to its own vetted address', async () => {
    const { transports, calls } = recordingTransports([redirectTo('https://also-public.test/next'), ok])
    const client = createHttpClient({ config, resolver, transports })
    const response = await client.request({
      url: 'https://public.test/',
      egressPolicy: 'public',
      followRedirects: true,
    })
    expect(response.redirects).toEqual(['https://also-public.test/next'])
    expect(calls.map((call) => (call.options as NodeHopOptions).pinned?.address)).toEqual([
      '93.184.216.34',
      '2606:4700::6810:84e5',
    ])
  })

  it.each([
    'http://internal.test/admin',
    'http://127.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:10.0.0.1]/',
    'http://localhost:8080/',
  ])('refuses a redirect hop to %s before connecting to it', async (location) => {
    const { transports, calls } = recordingTransports([redirectTo(location)])
    const client = createHttpClient({ config, resolver, transports })
    await expect(
      client.request({ url: 'https://public.test/', egressPolicy: 'public', followRedirects: true }),
    ).rejects.toMatchObject({ code: 'rejected', message: expect.stringContaining('public egress policy: ') })
    expect(calls.map((call) => call.url)).toEqual(['https://public.test/'])
  })

  it('returns the redirect untouched when redirects are off, without vetting its target', async () => {
    const { transports, calls } = recordingTransports([redirectTo('http://internal.test/')])
    const client = createHttpClient({ config, resolver, transports })
    const response = await client.request({ url: 'https://public.test/', egressPolicy: 'public' })
    expect(response.status).toBe(302)
    expect(calls).toHaveLength(1)
  })
})
