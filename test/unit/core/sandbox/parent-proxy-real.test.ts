import { createServer as createHttpServer } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { sanitizeEntryEnv } from '../../../../src/main/core/env/sanitize-entry'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { NetworkConfigInput } from '../../../../src/main/core/network/network-config'
import { createSandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { detectSandboxBackend } from '../../../../src/main/core/workbench/sandbox-probe'
import { startConnectProxy } from '../../../fixtures/network/connect-proxy'
import { startForwardProxy } from '../../../fixtures/network/forward-proxy'
import { startHttpServer } from '../../../fixtures/network/http-server'
import { sandboxWorlds } from './sandbox-fixture'

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

  it('a socks or broken proxy setting is not chained, and the run says so', async () => {
    const { notes } = await runWith(
      async () => ({ settings: { network: { httpProxy: 'socks5://127.0.0.1:1080' } }, env: {} }),
      'true',
    )
    expect(notes).toContain(
      'the sandbox proxy connects direct, not through your proxy: socks5://127.0.0.1:1080 is not an http or https proxy',
    )
    const broken = await runWith(
      async () => ({ settings: { network: { httpProxy: 'ftp://proxy.corp:21' } }, env: {} }),
      'true',
    )
    expect(broken.notes.join('\n')).toMatch(
      /^the sandbox proxy connects direct, not through your proxy: .*unsupported proxy scheme "ftp:"/m,
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
