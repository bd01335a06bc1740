import { connect, createServer, type Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { urlCredential } from '../../../../src/main/core/sandbox/parent-proxy'
import { socksHandshake } from '../../../../src/main/core/sandbox/socks-tunnel'
import { startHttpServer } from '../../../fixtures/network/http-server'
import { startSocks5Proxy } from '../../../fixtures/network/socks5-proxy'

/** The SOCKS client against a real SOCKS server on 127.0.0.1 (which tunnels every request to 127.0.0.1). */
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function parentSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  cleanups.push(async () => void socket.destroy())
  await new Promise((resolve) => socket.once('connect', resolve))
  return socket
}

/** One HTTP/1.0 request over the tunnel; the whole answer. */
function get(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    socket.on('data', (chunk) => (text += chunk))
    socket.once('end', () => resolve(text))
    socket.write('GET /x HTTP/1.0\r\nHost: t\r\n\r\n')
  })
}

describe('socksHandshake', () => {
  it('sends IPv6 addresses (an IPv4 tail too) as 16 bytes, never a name, and the tunnel carries the bytes after it', async () => {
    const origin = await startHttpServer((_request, response) => response.end('through\n'))
    cleanups.push(() => origin.close())
    const parent = await startSocks5Proxy()
    cleanups.push(() => parent.close())
    for (const address of ['::1', '::ffff:127.0.0.1', '2001:db8::7:1']) {
      const socket = await parentSocket(parent.url)
      await socksHandshake(socket, 5, address, origin.port, null)
      expect(await get(socket)).toContain('through')
    }
    expect(parent.connects).toEqual([
      `0000:0000:0000:0000:0000:0000:0000:0001:${origin.port}`,
      `0000:0000:0000:0000:0000:ffff:7f00:0001:${origin.port}`,
      `2001:0db8:0000:0000:0000:0000:0007:0001:${origin.port}`,
    ])
  })

  it('refuses what cannot be said: IPv6 over SOCKS4, a login the parent wants but the URL lacks', async () => {
    const parent = await startSocks5Proxy({ credentials: { user: 'u', password: 'p' } })
    cleanups.push(() => parent.close())
    await expect(socksHandshake(await parentSocket(parent.url), 4, '::1', 80, null)).rejects.toThrow(
      'cannot reach ::1: SOCKS4 carries IPv4 addresses only',
    )
    await expect(socksHandshake(await parentSocket(parent.url), 5, '127.0.0.1', 80, null)).rejects.toThrow(
      'accepts none of the offered logins (it may want a user name and password in the proxy URL)',
    )
    expect(parent.connects).toEqual([])
  })

  it('keeps what a server that speaks first sent in the same packet as the SOCKS reply (SSH, SMTP)', async () => {
    // A SOCKS5 parent that answers the CONNECT with its reply and the origin's banner in one write.
    const server = createServer((client) => {
      let seen = 0
      client.on('data', (chunk) => {
        seen += chunk.length
        if (seen === 3) client.write(Buffer.from([5, 0]))
        else
          client.write(
            Buffer.concat([Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 22]), Buffer.from('SSH-2.0-x\r\n')]),
          )
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
    const socket = await parentSocket(`socks5://127.0.0.1:${(server.address() as { port: number }).port}`)
    await socksHandshake(socket, 5, '127.0.0.1', 22, null)
    // The proxy pipes the tunnel to its client a turn later.
    await new Promise((resolve) => setImmediate(resolve))
    const client = new PassThrough()
    socket.pipe(client)
    const banner = await new Promise<string>((resolve) =>
      client.once('data', (chunk) => resolve(String(chunk))),
    )
    expect(banner).toBe('SSH-2.0-x\r\n')
  })

  it.each([
    ['50%off', '50%off'],
    ['p%40ss%3Aword', 'p@ss:word'],
    // A run of escapes that is not UTF-8 is kept as written.
    ['caf%C3%A9%E2%82', 'caf%C3%A9%E2%82'],
  ])('a proxy URL credential %s reads as %s, never a throw', (written, meant) => {
    expect(urlCredential(written)).toBe(meant)
  })
})
