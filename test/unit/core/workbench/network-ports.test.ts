import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { workspaceNetworkFile } from '../../../../src/main/core/settings/workspace-network-file'
import {
  type ChildTcpServer,
  framedClientScript,
  startChildTcpServer,
} from '../../../fixtures/network/tcp-child-server'
import { type ShellgateServers, startShellgateServers } from '../sandbox/shellgate-servers'
import { waitFor } from './core-harness'

/** Issue 19.3: the host's loopback is closed to sandboxed commands, except the ports a person allows per workspace. */
let servers: ShellgateServers | undefined
const children: ChildTcpServer[] = []
const listeners: Server[] = []
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.close()))
  await Promise.all(listeners.splice(0).map((server) => new Promise((done) => server.close(done))))
  await servers?.close()
  servers = undefined
})

async function approvedRun(s: ShellgateServers, command: string) {
  const { core } = s.host
  const sessionId = core.sessions.list()[0]!.id
  const running = core.bash.run(sessionId, { command })
  const approval = await waitFor(() => core.approvals.list()[0], 'the approval card')
  await core.approvals.answer(approval.id, { kind: 'allow_once' })
  return running
}

function auditLines(home: string) {
  return readFileSync(`${home}/audit.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}

describe('allowed workspace ports (real bwrap, real socat, a real service in another process)', () => {
  it('an allowed port carries a non-HTTP protocol both ways; a port not allowed stays closed', async () => {
    servers = await startShellgateServers()
    const database = await startChildTcpServer()
    const other = await startChildTcpServer()
    children.push(database, other)
    await servers.host.core.networkRules.setWorkspace(servers.workspace, {
      allowedPorts: [database.port],
      allowlist: [],
      denylist: [],
    })
    const reached = await approvedRun(servers, framedClientScript(database.port, 'hello db'))
    expect(reached).toMatchObject({ status: 'completed', sandbox: 'workspace-write' })
    expect(reached.content).toBe('pong:bd olleh')

    const closed = await approvedRun(
      servers,
      `${framedClientScript(other.port, 'hello')}; curl -sS telnet://127.0.0.1:${other.port} </dev/null`,
    )
    expect(closed.content).toContain('refused 111')
    expect(closed.content).toContain(
      `blocked by the sandbox: the host's 127.0.0.1:${other.port} is not reachable from sandboxed commands; only the ports allowed for this workspace are.`,
    )
    const forwarded = auditLines(servers.home).filter((line) => line.status === 'network')
    expect(forwarded).toEqual([
      expect.objectContaining({
        verdict: 'allow',
        decidedBy: 'rule',
        network: {
          method: 'FORWARD',
          host: '127.0.0.1',
          port: database.port,
          reason: 'an allowed port of this workspace',
        },
      }),
    ])
  })

  it("Shellgate's own port is refused in settings, not forwarded when written into the file by hand, and refused at connect time", async () => {
    servers = await startShellgateServers()
    const s = servers
    const { networkRules } = s.host.core
    await expect(
      networkRules.setWorkspace(s.workspace, { allowedPorts: [s.browserPort], allowlist: [], denylist: [] }),
    ).rejects.toThrow(
      `allowedPorts.0: 127.0.0.1:${s.browserPort} is Shellgate's own (its browser-mode page or another of its servers); it can never be allowed`,
    )
    await expect(
      networkRules.setWorkspace(s.workspace, { allowedPorts: [3128], allowlist: [], denylist: [] }),
    ).rejects.toThrow("3128 is the sandbox proxy's own port inside every command; it can never be allowed")
    await expect(
      networkRules.setWorkspace(s.workspace, { allowedPorts: [70_000], allowlist: [], denylist: [] }),
    ).rejects.toThrow('allowedPorts.0')

    // A hand edit (or another writer) puts it in the file anyway: the run still never forwards it.
    const file = workspaceNetworkFile(s.home, s.workspace)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify({ allowedPorts: [s.browserPort] }))
    const own = await approvedRun(s, framedClientScript(s.browserPort, 'x'))
    expect(own.content).toContain('refused 111')
    expect(own.content).toContain(
      `Sandbox: port ${s.browserPort} is not forwarded: 127.0.0.1:${s.browserPort} is Shellgate's own`,
    )

    // A port that was free when it was allowed, and became Shellgate's before the connection.
    const later = createServer((socket) => socket.end('shellgate controls\n'))
    listeners.push(later)
    const free = await new Promise<number>((resolve) => {
      const probe = createServer()
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    await networkRules.setWorkspace(s.workspace, { allowedPorts: [free], allowlist: [], denylist: [] })
    const { core } = s.host
    const sessionId = core.sessions.list()[0]!.id
    // The command waits for the test's signal (a file in the workspace), then connects.
    const running = core.bash.run(sessionId, {
      command: `until [ -e listening ]; do sleep 0.02; done; ${framedClientScript(free, 'x')}`,
    })
    const approval = await waitFor(() => core.approvals.list()[0], 'the approval card')
    await core.approvals.answer(approval.id, { kind: 'allow_once' })
    // Once the run's forwarder for `free` exists, Shellgate itself starts listening there.
    const sandboxDir = join(s.home, 'sandbox')
    await waitFor(
      () => readdirSync(sandboxDir).some((name) => existsSync(join(sandboxDir, name, `port-${free}.sock`))),
      "the run's forwarder",
    )
    await new Promise<void>((resolve) => later.listen(free, '127.0.0.1', resolve))
    writeFileSync(join(s.workspace, 'listening'), '')
    const call = await running
    expect(call.content).toContain('closed without an answer')
    expect(call.content).not.toContain('shellgate controls')
    expect(call.content).toContain(`blocked by the sandbox: 127.0.0.1:${free} is Shellgate's own`)
  })
})
