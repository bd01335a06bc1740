import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { contract } from '../../../src/shared/ipc/contract'
import type { RequestName } from '../../../src/shared/ipc/define'
import { RpcError } from '../../../src/shared/ipc/errors'
import { createClient } from '../../../src/shared/ipc/client'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { type InProcessHub, startInProcessHub, waitFor } from './hub-harness'

type Method = RequestName<typeof contract>

let hub: InProcessHub | undefined
afterEach(async () => {
  await hub?.close()
  hub = undefined
})

const uiMethods = (Object.entries(contract.requests) as [Method, { role: string }][])
  .filter(([, spec]) => spec.role === 'ui')
  .map(([name]) => name)

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'ok'
  } catch (error) {
    return error instanceof RpcError ? error.code : `thrown: ${String(error)}`
  }
}

describe('roles on the hub socket', () => {
  it('the contract marks every method, and the person-only ones are the expected set', () => {
    for (const spec of Object.values(contract.requests)) expect(['ui', 'agent']).toContain(spec.role)
    expect(uiMethods).toEqual(
      expect.arrayContaining([
        'approvals.answer',
        'approvals.list',
        'settings.setMode',
        'settings.addRule',
        'settings.trustWorkspaceRules',
        'sessions.list',
        'tasks.stopAll',
        'audit.query',
        'env.report',
        'network.test',
      ]),
    )
  })

  it('every ui method called as an agent is denied before validation, and no handler runs', async () => {
    hub = await startInProcessHub()
    const { core } = hub.host
    const person = createClient(contract, connectLoopback(hub.host.dispatcher, hub.host.hub, 'ui').transport)
    const agent = await hub.connectAgent()
    // A real pending approval, so approvals.answer has something it could wrongly answer.
    const session = await agent.client.request('sessions.create', { title: 'agent' })
    const waiting = agent.client.request('bash.run', {
      sessionId: session.id,
      command: 'touch made-by-agent',
    })
    const pending = await waitFor(() => core.approvals.list()[0], 'the approval card')
    const personSession = core.sessions.list().find((s) => s.id !== session.id)
    expect(personSession).toBeDefined()
    const modeBefore = core.settings.user().permissions.mode
    const settingsFileBefore = await readFile(join(hub.home, 'settings.json'), 'utf8').catch(() => null)

    // Valid input where a handler could do harm; garbage elsewhere (role comes before validation).
    const params: Partial<Record<Method, unknown>> = {
      'approvals.answer': { id: pending.id, answer: { kind: 'allow_once' } },
      'settings.setMode': { mode: 'yolo' },
      'settings.addRule': { scope: 'user', list: 'allow', rule: 'touch:*' },
      'settings.trustWorkspaceRules': {},
      'tasks.stopAll': {},
    }
    const outcomes: Record<string, string> = {}
    for (const method of uiMethods) {
      outcomes[method] = await codeOf(
        agent.client.request(method, (params[method] ?? { garbage: true }) as never),
      )
    }
    expect(outcomes).toEqual(Object.fromEntries(uiMethods.map((method) => [method, 'denied'])))

    expect(core.settings.user().permissions.mode).toBe(modeBefore)
    expect(await readFile(join(hub.home, 'settings.json'), 'utf8').catch(() => null)).toBe(settingsFileBefore)
    expect(core.approvals.list().map((approval) => approval.id)).toEqual([pending.id])
    // Closing is an agent method, for its own sessions only.
    expect(await codeOf(agent.client.request('sessions.close', { sessionId: personSession?.id ?? '' }))).toBe(
      'denied',
    )
    expect(core.sessions.list().map((s) => s.id)).toContain(personSession?.id)

    // The person can answer it: the denial was about the role, not the approval.
    await person.request('approvals.answer', { id: pending.id, answer: { kind: 'deny' } })
    expect((await waiting).status).toBe('denied')
  })

  it('an agent reads and stops only its own sessions, and sees only their events', async () => {
    hub = await startInProcessHub()
    await hub.host.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const alice = await hub.connectAgent()
    const bob = await hub.connectAgent()
    const bobEvents: { name: string; payload: unknown }[] = []
    bob.client.on('bash.call', (payload) => bobEvents.push({ name: 'bash.call', payload }))
    bob.client.on('tasks.updated', (payload) => bobEvents.push({ name: 'tasks.updated', payload }))
    bob.client.on('tasks.output', (payload) => bobEvents.push({ name: 'tasks.output', payload }))
    bob.client.on('settings.changed', (payload) => bobEvents.push({ name: 'settings.changed', payload }))
    bob.client.on('sessions.changed', (payload) => bobEvents.push({ name: 'sessions.changed', payload }))
    const aliceEvents: string[] = []
    alice.client.on('bash.call', (call) => aliceEvents.push(call.sessionId))

    const mine = await alice.client.request('sessions.create', {
      title: 'alice',
      agent: { name: 'alice-agent', version: '1.0' },
    })
    expect(mine.agent).toEqual({ name: 'alice-agent', version: '1.0' })
    const call = await alice.client.request('bash.run', {
      sessionId: mine.id,
      command: 'echo secret-of-alice; sleep 30',
      run_in_background: true,
    })
    expect(call.taskId).toBeTruthy()
    const taskId = call.taskId as string
    await waitFor(() => aliceEvents.includes(mine.id), 'alice sees her own call')

    expect(await codeOf(bob.client.request('bash.history', { sessionId: mine.id }))).toBe('denied')
    expect(await codeOf(bob.client.request('bash.output', { sessionId: mine.id, callId: call.id }))).toBe(
      'denied',
    )
    expect(await codeOf(bob.client.request('bash.run', { sessionId: mine.id, command: 'echo hi' }))).toBe(
      'denied',
    )
    expect(await codeOf(bob.client.request('bash.check', { sessionId: mine.id, command: 'ls' }))).toBe(
      'denied',
    )
    expect(await codeOf(bob.client.request('tasks.tail', { sessionId: mine.id, taskId }))).toBe('denied')
    expect(await codeOf(bob.client.request('tasks.stop', { taskId }))).toBe('denied')
    // An id that does not exist gets the same answer as someone else's.
    expect(await codeOf(bob.client.request('bash.history', { sessionId: 'no-such-session' }))).toBe('denied')
    expect(await bob.client.request('tasks.list', {})).toEqual([])
    expect((await alice.client.request('tasks.list', {})).map((task) => task.id)).toEqual([taskId])
    expect(await alice.client.request('bash.history', { sessionId: mine.id })).not.toHaveLength(0)

    // Bob's own traffic reaches Bob, which proves his subscription works while Alice's did not reach him.
    const his = await bob.client.request('sessions.create', { title: 'bob' })
    await bob.client.request('bash.run', { sessionId: his.id, command: 'echo bob' })
    await waitFor(() => bobEvents.some((event) => event.name === 'bash.call'), 'bob sees his own call')
    const stopped = await alice.client.request('tasks.stop', { taskId })
    expect(stopped.status).not.toBe('running')
    await hub.host.core.settings.updateUser({ permissions: { mode: 'build' } })
    await bob.client.request('bash.history', { sessionId: his.id })

    const leaked = JSON.stringify(bobEvents)
    expect(leaked).not.toContain(mine.id)
    expect(leaked).not.toContain('secret-of-alice')
    expect(bobEvents.filter((event) => event.name === 'settings.changed')).toEqual([])
    for (const event of bobEvents.filter((each) => each.name === 'sessions.changed'))
      for (const session of (event.payload as { sessions: { id: string }[] }).sessions)
        expect(session.id).toBe(his.id)
  })

  it('bash.check says what would happen under the mode and rules, and runs nothing', async () => {
    hub = await startInProcessHub()
    const agent = await hub.connectAgent()
    const session = await agent.client.request('sessions.create', {})
    const reader = await agent.client.request('bash.check', { sessionId: session.id, command: 'ls -la' })
    expect(reader).toMatchObject({ readOnly: true, wouldDo: 'run', mode: 'build' })
    const writer = await agent.client.request('bash.check', {
      sessionId: session.id,
      command: 'touch checked-file',
    })
    expect(writer).toMatchObject({ readOnly: false, wouldDo: 'ask', mode: 'build' })
    await hub.host.core.settings.updateUser({ permissions: { mode: 'plan' } })
    expect(
      await agent.client.request('bash.check', { sessionId: session.id, command: 'touch checked-file' }),
    ).toMatchObject({ wouldDo: 'deny', mode: 'plan' })
    await hub.host.core.settings.addRule({ scope: 'user', list: 'deny', rule: 'ls:*' })
    expect(
      await agent.client.request('bash.check', { sessionId: session.id, command: 'ls -la' }),
    ).toMatchObject({
      wouldDo: 'deny',
      decidedBy: 'rule.deny',
    })
    expect(hub.host.core.approvals.list()).toEqual([])
    expect(await agent.client.request('bash.history', { sessionId: session.id })).toEqual([])
    await expect(readFile(join(hub.workspace, 'checked-file'))).rejects.toThrow()
  })
})
