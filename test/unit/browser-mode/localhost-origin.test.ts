import { createServer, request, type Server } from 'node:http'
import { describe, expect, it } from 'vitest'
import { codeOf, logIn, openSocket, postExchange, startTestServer } from '../transports/harness'

// Browser mode listens on 127.0.0.1:PORT only. `localhost:PORT` is not only that socket: a
// browser resolves localhost to ::1 as well (Chromium tries it first), and [::1]:PORT is free for
// any other local program, another user's included. Whoever answers there owns the origin
// http://localhost:PORT: a login address opened under that name hands it the code in the fragment,
// and a key or upgrade with that Origin would be its page's. So the one name is 127.0.0.1.

function listenOnIpv6Loopback(port: number): Promise<Server> {
  const impostor = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' })
    response.end('<script>/* reads location.hash and trades the code itself */</script>')
  })
  return new Promise((resolve, reject) => {
    impostor.once('error', reject)
    impostor.listen(port, '::1', () => resolve(impostor))
  })
}

function getPage(port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

function upgradeStatus(socket: ReturnType<typeof openSocket>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    socket.once('open', () => {
      socket.close()
      resolve('open')
    })
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
    socket.once('error', () => undefined)
  })
}

describe('browser mode answers to 127.0.0.1 only, never to localhost', () => {
  it('another program can hold [::1]:PORT beside us, so Host and Origin localhost:PORT are refused', async () => {
    const running = await startTestServer()
    const { server } = running
    const impostor = await listenOnIpv6Loopback(server.port)
    try {
      // The evidence: the same port on ::1 is someone else's, and answers as them.
      const stolen = await fetch(`http://[::1]:${server.port}/`)
      expect(await stolen.text()).toContain('trades the code itself')

      const localhost = `localhost:${server.port}`
      const code = codeOf(server.mintLoginUrl())
      const exchange = await postExchange(server, JSON.stringify({ code }), {
        host: localhost,
        origin: `http://${localhost}`,
      })
      expect(exchange.status).toBe(403)
      expect(JSON.parse(exchange.body)).toMatchObject({ error: { code: 'host_refused' } })
      const viaOrigin = await postExchange(server, JSON.stringify({ code }), {
        origin: `http://${localhost}`,
      })
      expect(JSON.parse(viaOrigin.body)).toMatchObject({ error: { code: 'origin_refused' } })

      const key = await logIn(server)
      expect(await upgradeStatus(openSocket(server, { key, origin: `http://${localhost}` }))).toBe(403)
      expect(await upgradeStatus(openSocket(server, { key, host: localhost }))).toBe(403)
      const page = await getPage(server.port, localhost)
      expect(page.status).toBe(403)
      expect(page.body).toContain(`http://127.0.0.1:${server.port}/`)
      // The code refused under the wrong name is still good under the right one.
      expect((await postExchange(server, JSON.stringify({ code }))).status).toBe(200)
      expect(await upgradeStatus(openSocket(server, { key }))).toBe('open')
    } finally {
      await new Promise((resolve) => impostor.close(resolve))
      await running.dispose()
    }
  })
})
