import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { workspaceNetworkFile } from '../../../../src/main/core/settings/workspace-network-file'
import { connectLoopback } from '../../../../src/main/transports/loopback'
import { createClient } from '../../../../src/shared/ipc/client'
import { contract } from '../../../../src/shared/ipc/contract'
import type { PendingApproval } from '../../../../src/shared/ipc/domains/approvals'
import { startHttpServer, type TestServer } from '../../../fixtures/network/http-server'
import { type ShellgateServers, startShellgateServers } from '../sandbox/shellgate-servers'
import { waitFor } from './core-harness'

/**
 * Issue 19.3, ask per domain, on the real Bash path in real bwrap: with the allowlist policy an
 * unlisted domain holds the connection and shows a card; the answer is a network rule, audited.
 */
let servers: ShellgateServers | undefined
let registry: TestServer | undefined
afterEach(async () => {
  await servers?.close()
  await registry?.close()
  servers = undefined
  registry = undefined
})

/** Test DNS: these public-looking names map to the 127.0.0.1 registry server, and only through the proxy. */
const NAMES = ['registry.test', 'mirror.registry.test', 'cdn.registry.test']
const resolver = async (hostname: string) =>
  NAMES.includes(hostname) ? [{ address: '127.0.0.1', family: 4 as const }] : []

async function setUp() {
  registry = await startHttpServer((request, response) =>
    response.end(`package from ${request.headers.host}\n`),
  )
  servers = await startShellgateServers({ resolver, admitLoopbackPorts: [registry.port] })
  const { core } = servers.host
  await core.settings.updateUser({ sandbox: { network: 'allowlist' } })
  const sessionId = core.sessions.list()[0]!.id
  const fetch = (host: string) => `curl -sS -p --max-time 100 http://${host}:${registry!.port}/pkg`
  // Run a command the person approves; resolves with the run (the network card comes later).
  const approved = async (command: string) => {
    const running = core.bash.run(sessionId, { command })
    const card = await waitFor(() => core.approvals.list().find((a) => !a.network), 'the command card')
    await core.approvals.answer(card.id, { kind: 'allow_once' })
    return running
  }
  const networkCard = () =>
    waitFor(() => core.approvals.list().find((approval) => approval.network), 'the network card')
  return { s: servers, core, sessionId, fetch, approved, networkCard, port: registry.port }
}

function audit(home: string) {
  return readFileSync(join(home, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.status === 'network')
}

describe('network allowlist: an unlisted domain is asked, per domain', () => {
  it('the card says who wants what; allow once lets this command through and asks again next time', async () => {
    const { s, core, fetch, approved, networkCard, port } = await setUp()
    const command = fetch('registry.test')
    const running = approved(command)
    const card: PendingApproval = await networkCard()
    expect(card).toMatchObject({
      command,
      network: { host: 'registry.test', port, method: 'CONNECT' },
      why: {
        reason: `\`${command}\` wants registry.test:${port}, which is not on the network allowlist`,
        suggestedRules: ['registry.test'],
      },
      sandbox: { profile: 'workspace-write', unsandboxedAllowed: false },
    })
    // The same card over the contract, as every approval surface lists it.
    const ui = createClient(contract, connectLoopback(s.host.dispatcher, s.host.hub, 'ui').transport)
    expect(await ui.request('approvals.list', {})).toEqual([
      expect.objectContaining({ network: card.network }),
    ])
    // Not runnable "unsandboxed": it allows a connection, not a command.
    expect(await core.approvals.answer(card.id, { kind: 'allow_once', unsandboxed: true })).toMatchObject({
      ok: false,
      code: 'invalid_input',
    })
    await core.approvals.answer(card.id, { kind: 'allow_once' })
    const call = await running
    expect(call).toMatchObject({ status: 'completed', sandbox: 'workspace-write' })
    expect(call.content).toBe(`package from registry.test:${port}`)
    expect(audit(s.home)).toEqual([
      expect.objectContaining({
        command,
        verdict: 'allow',
        decidedBy: 'allowed_once',
        approvedBy: 'user',
        rule: null,
        network: expect.objectContaining({ method: 'CONNECT', host: 'registry.test', port }),
      }),
    ])
    // Once is once: the next run asks again.
    const again = approved(command)
    const second = await networkCard()
    await core.approvals.answer(second.id, { kind: 'deny' })
    expect((await again).content).toContain('the person denied')
  })

  it('always for this domain saves a network rule on this machine: the next run is not asked', async () => {
    const { s, core, fetch, approved, networkCard, port } = await setUp()
    const running = approved(fetch('mirror.registry.test'))
    const card = await networkCard()
    expect(card.why.suggestedRules).toEqual(['mirror.registry.test', '*.registry.test'])
    // Never into the repository, and never a pattern that does not admit the host.
    for (const [answer, message] of [
      [{ rule: '*.registry.test', scope: 'workspace' }, 'never the repository'],
      [{ rule: 'other.test', scope: 'local' }, 'does not match mirror.registry.test'],
      [{ rule: '*.test', scope: 'local' }, 'would admit every site under .test'],
    ] as const) {
      const result = await core.approvals.answer(card.id, { kind: 'always_allow', ...answer })
      expect(result).toMatchObject({ ok: false, code: 'invalid_input' })
      expect(result.ok === false && result.message).toContain(message)
    }
    await core.approvals.answer(card.id, { kind: 'always_allow', rule: '*.registry.test', scope: 'local' })
    expect((await running).content).toBe(`package from mirror.registry.test:${port}`)
    const file = workspaceNetworkFile(s.home, s.workspace)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ allowlist: ['*.registry.test'] })
    // The next run, another host under the saved pattern: no card.
    const next = await approved(fetch('cdn.registry.test'))
    expect(next.content).toBe(`package from cdn.registry.test:${port}`)
    expect(core.approvals.list()).toEqual([])
    expect(
      audit(s.home).map((line) => [line.network.host, line.decidedBy, line.rule, line.ruleFile]),
    ).toEqual([
      ['mirror.registry.test', 'always_allowed', '*.registry.test', file],
      ['cdn.registry.test', 'rule', '*.registry.test', file],
    ])
  })

  it('deny refuses the connection with the reason, and the model is told how to go further', async () => {
    const { s, core, fetch, approved, networkCard, port } = await setUp()
    const running = approved(fetch('registry.test'))
    const card = await networkCard()
    await core.approvals.answer(card.id, { kind: 'deny', message: 'not from this project' })
    const call = await running
    expect(call.status).toBe('failed')
    expect(call.content).toContain('CONNECT tunnel failed, response 403')
    expect(call.content).toContain(
      `blocked by the sandbox: the network proxy refused registry.test:${port}: the person denied registry.test:${port} for this command: not from this project. To go further, run the command again and allow the domain on its card`,
    )
    expect(registry!.requests).toEqual([])
    expect(audit(s.home)).toEqual([
      expect.objectContaining({ verdict: 'deny', decidedBy: 'denied_by_person', approvedBy: 'user' }),
    ])
  })

  it('two connections to one host share one card; a card nobody answers times out and is withdrawn', async () => {
    const { s, core, fetch, approved, port } = await setUp()
    await core.settings.updateUser({ approvals: { timeoutMs: 1_000 } })
    const cards: PendingApproval[] = []
    core.approvals.onRequested((approval) => approval.network && cards.push(approval))
    // Two at once, then a third after both were refused: the answer holds for the whole run.
    // The first one's errors go to a file and follow the second's: two curls writing the same
    // stderr at once interleave their lines (seen in CI: "CONNEcCTu rtlu:n n…").
    const twice = `${fetch('registry.test')} 2>/tmp/first.err & first=$!; ${fetch('registry.test')}; wait $first; cat /tmp/first.err >&2`
    const call = await approved(`${twice}; ${fetch('registry.test')}`)
    expect(cards).toHaveLength(1)
    expect(core.approvals.list()).toEqual([])
    expect(call.content.match(/CONNECT tunnel failed, response 403/g), call.content).toHaveLength(3)
    expect(call.content).toContain(
      `no one answered within 1 s whether this command may reach registry.test:${port}`,
    )
    expect(audit(s.home)).toEqual([
      expect.objectContaining({ verdict: 'deny', decidedBy: 'approval_timeout' }),
    ])
  })

  it('a card still waiting when the command ends is withdrawn, and an agent can never answer one', async () => {
    const { s, core, sessionId, fetch, approved, networkCard } = await setUp()
    const running = approved(fetch('registry.test'))
    const card = await networkCard()
    const agent = createClient(contract, connectLoopback(s.host.dispatcher, s.host.hub, 'agent').transport)
    await expect(
      agent.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } }),
    ).rejects.toThrow(/only the person/)
    await core.bash.cancel(sessionId, card.callId!)
    await running
    await waitFor(() => core.approvals.list().length === 0, 'the card withdrawn')
    expect(audit(s.home)).toEqual([expect.objectContaining({ verdict: 'deny', decidedBy: 'cancelled' })])
  })
})
