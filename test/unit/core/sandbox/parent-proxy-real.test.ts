import { mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { NetworkConfigInput } from '../../../../src/main/core/network/network-config'
import { createSandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { detectSandboxBackend } from '../../../../src/main/core/workbench/sandbox-probe'
import { startConnectProxy } from '../../../fixtures/network/connect-proxy'
import { startForwardProxy } from '../../../fixtures/network/forward-proxy'
import { startHttpServer } from '../../../fixtures/network/http-server'
import { startSocks5Proxy } from '../../../fixtures/network/socks5-proxy'
import { generateTestCertificates } from '../../../fixtures/network/tls-cert'
import { FIXTURE_ROOT, sandboxWorlds } from './sandbox-fixture'

/**
 * On a network whose only way out is the person's proxy (a corporate one), the sandbox proxy
 * decides first and then goes out through that proxy: real bwrap, real socat, a real parent proxy
 * and origin on 127.0.0.1, with public-looking names mapped to them only by the proxy's resolver.
 */
const port = createExecutionPort()
const detect = () => detectSandboxBackend(port, { platform: 'linux' })
const world = sandboxWorlds()
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const resolver = async (hostname: string) =>
  ['registry.test', 'direct.test'].includes(hostname) ? [{ address: '127.0.0.1', family: 4 as const }] : []

async function runWith(parent: () => Promise<NetworkConfigInput>, script: string) {
  const w = world()
  const origin = await startHttpServer((request, response) => response.end(`hello ${request.headers.host}\n`))
  cleanups.push(() => origin.close())
  const service = createSandboxService({
    platform: 'linux',
    home: w.home,
    dataDir: w.dataDir,
    detect,
    resolver,
    admitLoopbackPorts: [origin.port],
    parentProxy: parent,
  })
  const prepared = await service.prepare(w.prepareInput('workspace-write', { settings: { network: 'on' } }))
  if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
  try {
    const result = await port.execute({
      command: {
        mode: 'shell',
        command: script.replaceAll('PORT', String(origin.port)),
        shellProfile: 'posix-bash',
      },
      cwd: w.workspace,
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 20_000,
      sandbox: prepared.sandbox,
    })
    return { result, origin, notes: prepared.notes }
  } finally {
    await prepared.release()
  }
}

const curl = (flags: string, url: string) =>
  `curl -sS --max-time 10 ${flags} -w ' code=%{http_code}/%{http_connect}\\n' ${url}; echo rc=$?`

describe("the sandbox proxy chains to the person's own proxy", () => {
  it('CONNECT through network.httpProxy with its credentials, to the vetted address; a refused destination never reaches it', async () => {
    const parent = await startConnectProxy()
    cleanups.push(() => parent.close())
    const withCredentials = parent.url.replace('http://', 'http://corp:s%40cret@')
    const { result, origin } = await runWith(
      async () => ({ settings: { network: { httpProxy: withCredentials } }, env: {} }),
      [
        curl('-p -U sandboxed:own-secret', 'http://registry.test:PORT/a'),
        curl("-p --noproxy ''", 'http://127.0.0.1:9/'),
        curl('-p', 'http://unlisted.test:PORT/'),
      ].join('; '),
    )
    expect(result.stdout).toContain(`hello registry.test:${origin.port}\n code=200/200\nrc=0`)
    // The parent was asked for the address the policy pinned, with the person's credentials only.
    expect(parent.tunnels).toEqual([
      { target: `127.0.0.1:${origin.port}`, authorization: `Basic ${btoa('corp:s@cret')}` },
    ])
    // Loopback and a name that does not resolve are refused by the sandbox before any parent is asked.
    expect(result.stdout.match(/code=000\/403/g)).toHaveLength(2)
  })

  it("absolute-form http through the shell's sealed HTTP_PROXY; NO_PROXY sends a host direct", async () => {
    const parent = await startForwardProxy()
    cleanups.push(() => parent.close())
    const env = sanitizeEntryEnv(
      { PATH: '/usr/bin:/bin', HTTP_PROXY: parent.origin, NO_PROXY: 'direct.test' },
      'linux',
    )
    const { result, origin } = await runWith(
      async () => ({ settings: {}, env }),
      [curl('', 'http://registry.test:PORT/through'), curl('', 'http://direct.test:PORT/direct')].join('; '),
    )
    expect(result.stdout).toContain(`hello registry.test:${origin.port}\n code=200/000\nrc=0`)
    expect(result.stdout).toContain(`hello direct.test:${origin.port}\n code=200/000\nrc=0`)
    expect(parent.requests.map((request) => [request.method, request.url, request.headers.host])).toEqual([
      ['GET', `http://127.0.0.1:${origin.port}/through`, `registry.test:${origin.port}`],
    ])
    expect(origin.requests.map((request) => request.url)).toEqual(['/through', '/direct'])
  })

  it('an https:// parent is verified with network.caCertFile; without that CA nothing reaches it', async () => {
    const caDir = mkdtempSync(join(FIXTURE_ROOT, 'shellgate-parent-ca-'))
    cleanups.push(async () => rmSync(caDir, { recursive: true, force: true }))
    const certs = generateTestCertificates(caDir)
    const parent = await startConnectProxy(certs)
    cleanups.push(() => parent.close())
    const fetchThroughParent = curl('-p', 'http://registry.test:PORT/tls')
    const trusted = await runWith(
      async () => ({ settings: { network: { httpProxy: parent.url, caCertFile: certs.caFile } }, env: {} }),
      fetchThroughParent,
    )
    expect(trusted.result.stdout).toContain(`hello registry.test:${trusted.origin.port}\n code=200/200\nrc=0`)
    expect(parent.tunnels.map((tunnel) => tunnel.target)).toEqual([`127.0.0.1:${trusted.origin.port}`])
    // The same parent under Node's roots alone: its certificate is not trusted, so no CONNECT is sent.
    const untrusted = await runWith(
      async () => ({ settings: { network: { httpProxy: parent.url } }, env: {} }),
      fetchThroughParent,
    )
    expect(untrusted.result.stdout).toContain('code=000/502')
    expect(parent.tunnels).toHaveLength(1)
  })

  it('socks5h and socks5 parents with a login, and socks4, carry both CONNECT and plain http', async () => {
    const parent = await startSocks5Proxy({ credentials: { user: 'corp', password: 's@cret' } })
    cleanups.push(() => parent.close())
    const script = [
      curl('-p', 'http://registry.test:PORT/tunnel'),
      curl('', 'http://registry.test:PORT/plain'),
      curl('-p', 'http://unlisted.test:PORT/'),
    ].join('; ')
    for (const scheme of ['socks5h', 'socks5']) {
      const url = parent.url.replace('socks5://', `${scheme}://corp:s%40cret@`)
      const { result, origin, notes } = await runWith(
        async () => ({ settings: { network: { httpProxy: url } }, env: {} }),
        script,
      )
      expect(notes).toEqual([])
      expect(result.stdout).toContain(`hello registry.test:${origin.port}\n code=200/200\nrc=0`)
      expect(result.stdout).toContain(`hello registry.test:${origin.port}\n code=200/000\nrc=0`)
      // The vetted address, never the name (socks5h too); a refused name never reaches the parent.
      expect(parent.connects.splice(0)).toEqual([`127.0.0.1:${origin.port}`, `127.0.0.1:${origin.port}`])
      expect(parent.logins.splice(0)).toEqual(['5 corp:s@cret', '5 corp:s@cret'])
      expect(result.stdout).toContain('code=000/403')
    }
    const wrongPassword = parent.url.replace('socks5://', 'socks5://corp:guess@')
    const refused = await runWith(
      async () => ({ settings: { network: { httpProxy: wrongPassword } }, env: {} }),
      curl('-p', 'http://registry.test:PORT/'),
    )
    expect(refused.result.stdout).toContain('code=000/502')
    expect(parent.connects).toEqual([])
    const socks4 = await runWith(
      async () => ({
        settings: { network: { httpProxy: parent.url.replace('socks5://', 'socks4://ops@') } },
        env: {},
      }),
      curl('-p', 'http://registry.test:PORT/four'),
    )
    expect(socks4.result.stdout).toContain(`hello registry.test:${socks4.origin.port}\n code=200/200\nrc=0`)
    expect(parent.connects).toEqual([`127.0.0.1:${socks4.origin.port}`])
    expect(parent.logins).toEqual(['5 corp:guess', '4 ops'])
  })

  it('a broken proxy setting or CA file is not chained, and the run says so', async () => {
    const broken = await runWith(
      async () => ({ settings: { network: { httpProxy: 'ftp://proxy.corp:21' } }, env: {} }),
      'true',
    )
    expect(broken.notes.join('\n')).toMatch(
      /^the sandbox proxy connects direct, not through your proxy: .*unsupported proxy scheme "ftp:"/m,
    )
    const noCa = await runWith(
      async () => ({
        settings: { network: { httpProxy: 'https://127.0.0.1:9', caCertFile: '/nonexistent/ca.pem' } },
        env: {},
      }),
      'true',
    )
    expect(noCa.notes.join('\n')).toMatch(
      /^the sandbox proxy connects direct, not through your proxy: .*cannot read the CA file "\/nonexistent\/ca.pem" \(ENOENT\)/m,
    )
  })

  it('a parent that refuses is a 502 for the command; one that never answers is dropped when the command ends', async () => {
    const held: Socket[] = []
    // resume(): a socket nobody reads never sees the other side's end.
    const silent = createServer((socket) => held.push(socket.resume()))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => silent.close(() => resolve(undefined))))
    const dropped = new Promise<void>((resolve) =>
      silent.on('connection', (socket) => socket.on('close', () => resolve())),
    )
    // A corporate proxy whose own policy refuses the destination the sandbox allowed.
    const refusing = createHttpServer()
    refusing.on('connect', (_request, socket: Socket) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'))
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => refusing.close(() => resolve(undefined))))
    const refusingUrl = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`
    const silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`
    const refused = await runWith(
      async () => ({ settings: { network: { httpProxy: refusingUrl } }, env: {} }),
      curl('-p', 'http://registry.test:PORT/'),
    )
    expect(refused.result.stdout).toContain('code=000/502')
    const { result } = await runWith(
      async () => ({ settings: { network: { httpProxy: silentUrl } }, env: {} }),
      curl('-p --max-time 2', 'http://registry.test:PORT/'),
    )
    expect(held).toHaveLength(1)
    expect(result.stdout).toContain('rc=28')
    await dropped
  })
})
