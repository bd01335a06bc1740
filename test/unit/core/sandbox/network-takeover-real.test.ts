import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { EnforcedProfile } from '../../../../src/main/core/sandbox/types'
import { defaultUserSettings } from '../../../../src/shared/settings'
import { waitFor } from '../workbench/core-harness'
import { type ShellgateServers, startShellgateServers } from './shellgate-servers'

/**
 * Issue 19's takeover, its network steps, in real bwrap: an approved command (workspace-write, network
 * on) connected to 127.0.0.1:PORT of browser mode and to the hub. Every profile now has its own
 * network namespace, egress goes only through the proxy, and the proxy never dials loopback.
 */
const port = createExecutionPort()
let servers: ShellgateServers | undefined
const extra: Server[] = []
afterEach(async () => {
  await servers?.close()
  servers = undefined
  await Promise.all(extra.splice(0).map((server) => new Promise((done) => server.close(done))))
})

/** A name the proxy's resolver maps to 127.0.0.1, as an attacker's DNS could. */
const resolver = async (hostname: string) =>
  hostname === 'shellgate.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []

/** Node binds an abstract name padded with NULs to the whole sun_path, so the client pads it too. */
function probeScript(s: ShellgateServers, abstractName: string): string {
  const py = `import socket, sys
def attempt(label, family, address):
  s = socket.socket(family)
  try:
    s.connect(address); print(label, 'connected')
  except OSError as e:
    print(label, 'refused', e.errno)
attempt('hub socket:', socket.AF_UNIX, sys.argv[1])
attempt('abstract socket:', socket.AF_UNIX, ('\\0' + sys.argv[2]).ljust(108, '\\0'))
attempt('browser port:', socket.AF_INET, ('127.0.0.1', int(sys.argv[3])))`
  const via = (flags: string, url: string) =>
    `curl -s -o /dev/null --max-time 10 --noproxy '' ${flags} -w '%{http_code} %{http_connect}\\n' ${url}`
  return [
    `python3 -c "${py.replace(/"/g, '\\"')}" '${s.hubSocket}' '${abstractName}' ${s.browserPort}`,
    `printf 'through the proxy, absolute form: '; ${via('', `http://127.0.0.1:${s.browserPort}/`)}`,
    `printf 'through the proxy, CONNECT to a name for loopback: '; ${via('-p', `http://shellgate.test:${s.browserPort}/`)}`,
  ].join('\n')
}

async function listenAbstract(): Promise<string> {
  const name = `shellgate-test-${randomBytes(4).toString('hex')}`
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy())
    socket.end('hub-like\n')
  })
  await new Promise<void>((resolve) => server.listen(`\0${name}`, resolve))
  extra.push(server)
  return name
}

describe('the hub and browser mode are unreachable from every profile (real bwrap, network on)', () => {
  it.each<EnforcedProfile>(['read-only', 'workspace-write'])('%s', async (profile) => {
    servers = await startShellgateServers({ resolver })
    const s = servers
    const abstractName = await listenAbstract()
    const script = probeScript(s, abstractName)
    const env = { PATH: '/usr/bin:/bin' }
    // The same probe outside any sandbox reaches all three: the test can fail.
    const outside = await port.execute({
      command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
      cwd: s.workspace,
      env,
      timeoutMs: 20_000,
    })
    expect(outside.stdout).toContain(
      'hub socket: connected\nabstract socket: connected\nbrowser port: connected\n',
    )

    const prepared = await s.host.core.sandbox.prepare({
      settings: { ...defaultUserSettings().sandbox, network: 'on' },
      workspace: s.workspace,
      cwd: s.workspace,
      searchPath: '/usr/bin:/bin',
      readableFolders: [],
      ranWithoutAsking: profile === 'read-only',
      unsandboxedByPerson: false,
      readableFiles: [],
      writableFiles: [],
    })
    if (prepared.kind !== 'run' || !prepared.sandbox) throw new Error('expected a sandboxed run')
    expect(prepared.profile).toBe(profile)
    try {
      const inside = await port.execute({
        command: { mode: 'shell', command: script, shellProfile: 'posix-bash' },
        cwd: s.workspace,
        env,
        timeoutMs: 20_000,
        sandbox: prepared.sandbox,
      })
      // ENOENT: SHELLGATE_HOME (and its run/ folder) is hidden; ECONNREFUSED: the namespace's own loopback.
      expect(inside.stdout).toMatch(/^hub socket: refused (2|111)\n/)
      expect(inside.stdout).toContain('abstract socket: refused 111\nbrowser port: refused 111\n')
      if (profile === 'read-only') {
        // No proxy at all: nothing listens on the namespace's loopback.
        expect(inside.stdout).toContain('through the proxy, absolute form: 000 000\n')
        expect(inside.stdout).toContain('through the proxy, CONNECT to a name for loopback: 000 000\n')
      } else {
        expect(inside.stdout).toContain('through the proxy, absolute form: 403 000\n')
        expect(inside.stdout).toContain('through the proxy, CONNECT to a name for loopback: 000 403\n')
        const log = readFileSync(join(s.home, 'sandbox', 'proxy.log'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
        expect(log.map((d) => [d.method, d.host, d.port, d.allowed, d.reason])).toEqual([
          ['GET', '127.0.0.1', s.browserPort, false, '127.0.0.1 is a loopback address'],
          [
            'CONNECT',
            'shellgate.test',
            s.browserPort,
            false,
            '"shellgate.test" resolves to 127.0.0.1 is a loopback address',
          ],
        ])
      }
    } finally {
      await prepared.release()
    }
  })
})

describe('an approved command on the real Bash path (issue 19 takeover, network step)', () => {
  it('cannot reach the browser-mode port, and the model is told why', async () => {
    servers = await startShellgateServers()
    const { core } = servers.host
    const sessionId = core.sessions.list()[0]!.id
    const command = `curl -sS --max-time 5 http://127.0.0.1:${servers.browserPort}/`
    const running = core.bash.run(sessionId, { command })
    const approval = await waitFor(() => core.approvals.list()[0], 'the approval card')
    await core.approvals.answer(approval.id, { kind: 'allow_once' })
    const call = await running
    expect(call).toMatchObject({ status: 'failed', sandbox: 'workspace-write' })
    expect(call.content).toContain(`Failed to connect to 127.0.0.1 port ${servers.browserPort}`)
    expect(call.content).toContain(
      `blocked by the sandbox: the host's 127.0.0.1:${servers.browserPort} is not reachable from sandboxed commands; only the ports allowed for this workspace are.`,
    )
  })
})
