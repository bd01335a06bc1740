import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApprovalBroker } from '../../../../src/main/core/permissions/approval-broker'
import type {
  ApprovalRequest,
  ApprovalResolvedEvent,
  PendingApproval,
} from '../../../../src/main/core/permissions/approval-broker-types'
import { openSettingsStore, type SettingsStore } from '../../../../src/main/core/settings/settings-store'

let root: string
let store: SettingsStore
let timeoutMs: number

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-broker-'))
  await mkdir(join(root, 'workspace'))
  store = await openSettingsStore({ home: join(root, 'home'), workspace: join(root, 'workspace') })
  timeoutMs = 0
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

const makeBroker = (rules: Pick<SettingsStore, 'addRule'> = store) =>
  createApprovalBroker({ rules, timeoutMs: () => timeoutMs })

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    sessionId: 's1',
    command: 'touch f && npm test',
    cwd: join(root, 'workspace'),
    shell: '/bin/bash',
    description: 'Create f and run the tests',
    mode: 'build',
    why: {
      reason: 'touch and npm test are not read-only',
      nonReadOnly: [
        { text: 'touch f', reason: 'touch writes files' },
        { text: 'npm test', reason: 'npm test runs project scripts' },
      ],
      nearMiss: { rule: 'npm run:*', explanation: '"npm run:*" covers npm run, not npm test' },
      suggestedRules: ['npm test'],
    },
    ...overrides,
  }
}

describe('a pending approval', () => {
  it('is announced, listed with the why, and resolved once by allow once', async () => {
    const broker = makeBroker()
    const requested: PendingApproval[] = []
    const resolved: ApprovalResolvedEvent[] = []
    broker.onRequested((approval) => requested.push(approval))
    broker.onResolved((event) => resolved.push(event))

    const { approval, decision } = broker.request(request())
    expect(requested).toEqual([approval])
    expect(broker.list()).toEqual([approval])
    expect(broker.list('s1')).toEqual([approval])
    expect(broker.list('other')).toEqual([])
    expect(approval).toMatchObject({ command: 'touch f && npm test', mode: 'build', expiresAt: null })
    expect(approval.why.suggestedRules).toEqual(['npm test'])

    const answer = await broker.answer(approval.id, { kind: 'allow_once' })
    expect(answer).toEqual({
      ok: true,
      decision: { behavior: 'allow', decidedBy: 'user_once', approvedBy: 'user' },
    })
    expect(await decision).toEqual({ behavior: 'allow', decidedBy: 'user_once', approvedBy: 'user' })
    expect(broker.list()).toEqual([])
    expect(resolved).toEqual([{ id: approval.id, sessionId: 's1', decision: await decision }])

    expect(await broker.answer(approval.id, { kind: 'deny' })).toMatchObject({
      ok: false,
      code: 'already_resolved',
    })
    expect(await broker.answer('nope', { kind: 'deny' })).toMatchObject({ ok: false, code: 'not_found' })
  })

  it('returns the deny message to the caller, or a default one', async () => {
    const broker = makeBroker()
    const first = broker.request(request())
    await broker.answer(first.approval.id, { kind: 'deny', message: 'Use the Makefile target instead.' })
    expect(await first.decision).toEqual({
      behavior: 'deny',
      decidedBy: 'user_deny',
      approvedBy: 'user',
      message: 'Use the Makefile target instead.',
    })
    const second = broker.request(request())
    await broker.answer(second.approval.id, { kind: 'deny', message: '   ' })
    expect((await second.decision).behavior === 'deny' && (await second.decision)).toMatchObject({
      message: 'The user denied this command.',
    })
  })

  it('is resolved exactly once when answers race', async () => {
    const broker = makeBroker()
    const resolved: ApprovalResolvedEvent[] = []
    broker.onResolved((event) => resolved.push(event))
    const { approval, decision } = broker.request(request())
    const answers = await Promise.all([
      broker.answer(approval.id, { kind: 'always_allow', rule: 'npm test', scope: 'user' }),
      broker.answer(approval.id, { kind: 'allow_once' }),
      broker.answer(approval.id, { kind: 'deny', message: 'no' }),
    ])
    expect(answers.filter((a) => a.ok)).toHaveLength(1)
    expect(answers.filter((a) => !a.ok && a.code === 'already_resolved')).toHaveLength(2)
    const winner = answers.find((a) => a.ok)
    expect(winner?.ok && winner.decision).toEqual(await decision)
    expect(resolved).toHaveLength(1)
  })
})

describe('always allow', () => {
  it('saves the edited rule in the chosen scope and hands it to the caller', async () => {
    const broker = makeBroker()
    const { approval, decision } = broker.request(request())
    const answer = await broker.answer(approval.id, {
      kind: 'always_allow',
      rule: ' npm test:* ',
      scope: 'workspace',
    })
    expect(answer.ok).toBe(true)
    expect(await decision).toEqual({
      behavior: 'allow',
      decidedBy: 'user_always',
      approvedBy: 'user',
      rule: { list: 'allow', rule: 'npm test:*', scope: 'workspace', source: store.workspaceFile },
    })
    expect(JSON.parse(await readFile(store.workspaceFile, 'utf8')).permissions.allow).toEqual(['npm test:*'])
  })

  it('keeps a session-scope rule for that session only', async () => {
    const broker = makeBroker()
    const { approval } = broker.request(request({ sessionId: 's9' }))
    await broker.answer(approval.id, { kind: 'always_allow', rule: 'touch f', scope: 'session' })
    expect(store.rules('s9').map((r) => `${r.scope}:${r.rule}`)).toEqual(['session:touch f'])
    expect(store.rules('s1')).toEqual([])
  })

  it('leaves the approval pending when the rule is invalid, so the user can fix it', async () => {
    const broker = makeBroker()
    const { approval, decision } = broker.request(request())
    const answer = await broker.answer(approval.id, { kind: 'always_allow', rule: '   ', scope: 'user' })
    expect(answer).toMatchObject({ ok: false, code: 'invalid_input', field: 'rule' })
    expect(broker.list()).toHaveLength(1)
    await broker.answer(approval.id, { kind: 'allow_once' })
    expect((await decision).decidedBy).toBe('user_once')
  })

  it('lets the user answer first when the session closes during the save', async () => {
    const broker = makeBroker()
    const { approval, decision } = broker.request(request())
    const answering = broker.answer(approval.id, { kind: 'always_allow', rule: 'npm test', scope: 'user' })
    expect(broker.closeSession('s1')).toBe(1)
    expect((await answering).ok).toBe(true)
    expect((await decision).decidedBy).toBe('user_always')
  })

  /** A store whose home turns into a regular file after opening: every save fails (ENOTDIR/EEXIST). */
  async function storeThatCannotSave(): Promise<SettingsStore> {
    const home = join(root, 'doomed-home')
    const doomed = await openSettingsStore({ home, workspace: join(root, 'workspace') })
    await writeFile(home, 'not a directory')
    return doomed
  }

  it('denies for the closed session when the save then fails', async () => {
    const broker = makeBroker(await storeThatCannotSave())
    const { approval, decision } = broker.request(request())
    const answering = broker.answer(approval.id, { kind: 'always_allow', rule: 'npm test', scope: 'user' })
    broker.closeSession('s1')
    expect(await answering).toMatchObject({ ok: false, code: 'persist_failed' })
    expect(await decision).toMatchObject({ behavior: 'deny', decidedBy: 'session_closed' })
  })

  it('stays pending after a failed save when nothing else happened', async () => {
    const blockedHome = join(root, 'blocked')
    await writeFile(blockedHome, '')
    const broker = makeBroker(
      await openSettingsStore({ home: blockedHome, workspace: join(root, 'workspace') }),
    )
    const { approval } = broker.request(request())
    const answer = await broker.answer(approval.id, { kind: 'always_allow', rule: 'npm test', scope: 'user' })
    expect(answer).toMatchObject({
      ok: false,
      code: 'persist_failed',
      message: /^the rule was not saved: E(NOTDIR|EXIST)/,
    })
    expect(broker.list().map((a) => a.id)).toEqual([approval.id])
  })
})

describe('denied without an answer', () => {
  it('when its session closes, and only that session', async () => {
    const broker = makeBroker()
    const mine = broker.request(request({ sessionId: 'closing' }))
    const other = broker.request(request({ sessionId: 'staying' }))
    expect(broker.closeSession('closing')).toBe(1)
    expect(await mine.decision).toMatchObject({
      behavior: 'deny',
      decidedBy: 'session_closed',
      approvedBy: null,
    })
    expect(broker.list()).toEqual([other.approval])
    expect(await broker.answer(mine.approval.id, { kind: 'allow_once' })).toMatchObject({
      code: 'already_resolved',
    })
  })

  it('when the configured timeout passes', async () => {
    timeoutMs = 50
    const broker = makeBroker()
    const { approval, decision } = broker.request(request())
    expect(Date.parse(approval.expiresAt!) - Date.parse(approval.requestedAt)).toBe(50)
    expect(await decision).toMatchObject({ behavior: 'deny', decidedBy: 'approval_timeout' })
    expect(broker.list()).toEqual([])
    expect(await broker.answer(approval.id, { kind: 'allow_once' })).toMatchObject({
      code: 'already_resolved',
    })
  })

  it('exactly once when the timeout and an answer arrive together', async () => {
    timeoutMs = 20
    const broker = makeBroker()
    const resolved: ApprovalResolvedEvent[] = []
    broker.onResolved((event) => resolved.push(event))
    const { approval, decision } = broker.request(request())
    const answer = await new Promise<Awaited<ReturnType<typeof broker.answer>>>((resolve) => {
      setTimeout(() => resolve(broker.answer(approval.id, { kind: 'allow_once' })), 20)
    })
    const final = await decision
    expect(resolved).toHaveLength(1)
    expect(resolved[0]!.decision).toEqual(final)
    // Whichever came first, the answer's result agrees with what the caller got.
    if (answer.ok) expect(answer.decision).toEqual(final)
    else expect(final).toMatchObject({ decidedBy: 'approval_timeout' })
  })

  it('when the caller aborts, even before the request', async () => {
    const broker = makeBroker()
    const controller = new AbortController()
    const waiting = broker.request(request(), { signal: controller.signal })
    controller.abort()
    expect(await waiting.decision).toMatchObject({ decidedBy: 'cancelled' })
    const early = broker.request(request(), { signal: AbortSignal.abort() })
    expect(await early.decision).toMatchObject({ decidedBy: 'cancelled' })
    expect(broker.list()).toEqual([])
  })

  it('when the broker is disposed', async () => {
    const broker = makeBroker()
    const { decision } = broker.request(request())
    broker.dispose()
    expect(await decision).toMatchObject({ decidedBy: 'cancelled' })
  })
})
