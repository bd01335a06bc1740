import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ProxyDecision } from '../../../../src/main/core/sandbox/allowlist-proxy'
import { createSandboxService } from '../../../../src/main/core/sandbox/sandbox-service'
import { detectSandboxBackend } from '../../../../src/main/core/workbench/sandbox-probe'
import { defaultUserSettings, type SandboxSettings } from '../../../../src/shared/settings'
import { startHttpServer } from '../../../fixtures/network/http-server'
import { sandboxWorlds } from './sandbox-fixture'

const port = createExecutionPort()
const world = sandboxWorlds()
const detect = () => detectSandboxBackend(port, { platform: 'linux' })

/** Test DNS: the admitted and the refused names both point at the 127.0.0.1 test server. */
const resolver = async (hostname: string) =>
  ['allowed.test', 'other.test'].includes(hostname) ? [{ address: '127.0.0.1', family: 4 as const }] : []

describe('workspace-write with network allowlist: the host proxy over a bridged Unix socket', () => {
  it('lets the admitted host through, answers 403 for another, and logs both decisions', async () => {
    const w = world()
    const server = await startHttpServer((_request, response) => response.end('hello through the proxy\n'))
    const decisions: ProxyDecision[] = []
    const service = createSandboxService({
      platform: 'linux',
      home: w.home,
      dataDir: w.dataDir,
      detect,
      resolver,
      admitLoopbackPorts: [server.port],
      onProxyDecision: (decision) => decisions.push(decision),
    })
    const settings: SandboxSettings = {
      ...defaultUserSettings().sandbox,
      network: 'allowlist',
      allowlist: ['allowed.test'],
    }
    const prepared = await service.prepare({
      settings,
      workspace: w.workspace,
      cwd: w.workspace,
      searchPath: '/usr/bin:/bin',
      readableFolders: [],
      ranWithoutAsking: false,
      unsandboxedByPerson: false,
      readableFiles: [],
      writableFiles: [],
    })
    if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
    try {
      const curl = (host: string) =>
        `curl -sS -o - -w ' code=%{http_code}\\n' ${host.startsWith('-p ') ? '-p ' : ''}http://${host.replace('-p ', '')}:${server.port}/x; echo rc=$?`
      const result = await port.execute({
        // -p tunnels plain http through CONNECT, the path https takes, without needing TLS here.
        command: {
          mode: 'shell',
          command: `${curl('allowed.test')}; ${curl('other.test')}; ${curl('-p allowed.test')}; ${curl('-p other.test')}; curl -sS -o /dev/null -U u:proxy-secret http://allowed.test:${server.port}/auth`,
          shellProfile: 'posix-bash',
        },
        cwd: w.workspace,
        env: { PATH: '/usr/bin:/bin' },
        timeoutMs: 20_000,
        sandbox: prepared.sandbox,
      })
      expect(result.stdout).toContain('hello through the proxy\n code=200')
      expect(result.stdout).toContain(
        'blocked by the Shellgate sandbox proxy: other.test is not in sandbox.allowlist',
      )
      expect(result.stdout).toContain('code=403')
      expect(result.stdout.match(/hello through the proxy\n code=200/g)).toHaveLength(2)
      expect(result.stderr).toContain('CONNECT tunnel failed, response 403')
      expect(server.requests.map((request) => request.headers.host)).toEqual([
        `allowed.test:${server.port}`,
        `allowed.test:${server.port}`,
        `allowed.test:${server.port}`,
      ])
      // A credential meant for the proxy never reaches the origin.
      expect(server.requests[2]).toMatchObject({ url: '/auth' })
      expect(server.requests[2]?.headers['proxy-authorization']).toBeUndefined()
      expect(decisions.map((d) => [d.method, d.host, d.allowed])).toEqual([
        ['GET', 'allowed.test', true],
        ['GET', 'other.test', false],
        ['CONNECT', 'allowed.test', true],
        ['CONNECT', 'other.test', false],
        ['GET', 'allowed.test', true],
      ])
      const log = readFileSync(join(w.dataDir, 'sandbox', 'proxy.log'), 'utf8')
        .trim()
        .split('\n')
      expect(log.map((line) => JSON.parse(line).host)).toEqual([
        'allowed.test',
        'other.test',
        'allowed.test',
        'other.test',
        'allowed.test',
      ])
      expect(prepared.explain({ exitCode: 22, output: result.stdout })).toMatch(
        /^blocked by the sandbox: the network allowlist refused this host \(other\.test\)\. To go further, add the domain/,
      )
    } finally {
      await prepared.release()
      await server.close()
    }
  })

  it('an admitted name that resolves to loopback is still refused without the test admission (public egress)', async () => {
    const w = world()
    const server = await startHttpServer((_request, response) => response.end('must not be reached\n'))
    const service = createSandboxService({
      platform: 'linux',
      home: w.home,
      dataDir: w.dataDir,
      detect,
      resolver,
    })
    const settings: SandboxSettings = {
      ...defaultUserSettings().sandbox,
      network: 'allowlist',
      allowlist: ['allowed.test'],
    }
    const prepared = await service.prepare({
      settings,
      workspace: w.workspace,
      cwd: w.workspace,
      searchPath: '/usr/bin:/bin',
      readableFolders: [],
      ranWithoutAsking: false,
      unsandboxedByPerson: false,
      readableFiles: [],
      writableFiles: [],
    })
    if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
    try {
      const result = await port.execute({
        command: {
          mode: 'shell',
          command: `curl -sS http://allowed.test:${server.port}/`,
          shellProfile: 'posix-bash',
        },
        cwd: w.workspace,
        env: { PATH: '/usr/bin:/bin' },
        timeoutMs: 20_000,
        sandbox: prepared.sandbox,
      })
      expect(result.stdout).toContain('loopback address')
      expect(server.requests).toEqual([])
    } finally {
      await prepared.release()
      await server.close()
    }
  })
})

describe('allowlist without the bridge', () => {
  it('is refused with what to install, rather than run with a network that cannot work', async () => {
    const w = world()
    const service = createSandboxService({
      platform: 'linux',
      home: w.home,
      dataDir: w.dataDir,
      detect,
      socatPath: '/nonexistent/socat',
    })
    const prepared = await service.prepare({
      settings: { ...defaultUserSettings().sandbox, network: 'allowlist', allowlist: ['allowed.test'] },
      workspace: w.workspace,
      cwd: w.workspace,
      searchPath: '/usr/bin:/bin',
      readableFolders: [],
      ranWithoutAsking: false,
      unsandboxedByPerson: false,
      readableFiles: [],
      writableFiles: [],
    })
    expect(prepared).toEqual({
      kind: 'refuse',
      reason:
        'network allowlist needs /nonexistent/socat to bridge the proxy into the sandbox (install the socat package), or set the sandbox network to on or off',
    })
  })
})
