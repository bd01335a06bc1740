import { testHandlerDeps } from './handler-deps'
import { mkdir, truncate, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDispatcher } from '../../../src/main/ipc/dispatcher'
import { mapDomainError } from '../../../src/main/ipc/domain-errors'
import { createEventHub } from '../../../src/main/ipc/event-hub'
import { createHandlers } from '../../../src/main/ipc/handlers'

import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'
import { type CoreHarness, startCore } from '../core/workbench/core-harness'

let harness: CoreHarness
afterEach(() => harness?.dispose())

async function connect() {
  harness = await startCore()
  const hub = createEventHub(contract)
  const dispatcher = createDispatcher(contract, createHandlers(harness.core, testHandlerDeps()), {
    mapError: mapDomainError,
  })
  return createClient(contract, connectLoopback(dispatcher, hub).transport)
}

describe('the Shellgate contract over the real core', () => {
  it('puts the field at fault in bad-input messages, so the UI can show them next to it', async () => {
    const client = await connect()
    await expect(
      client.request('bash.run', { sessionId: harness.sessionId, command: 'ls', timeout: 'x' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^bash\.run: timeout: /),
    })
    await expect(
      client.request('bash.cancel', { sessionId: harness.sessionId, callId: 'nope' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'bash.cancel: callId: no call "nope" is running in this session',
    })
    await expect(
      client.request('bash.background', { sessionId: harness.sessionId, callId: '' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^bash\.background: callId/),
    })
    await expect(
      client.request('settings.addRule', { list: 'allow', rule: 'bad\u0000rule', scope: 'user' }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('rule') })
    await expect(
      client.request('settings.setNetwork', {
        httpProxy: 'not a url',
        noProxy: '',
        caCertFile: '',
        timeoutMs: null,
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('httpProxy') })
    await expect(
      client.request('settings.setNetwork', {
        httpProxy: '',
        noProxy: '',
        caCertFile: '/no/such/ca.pem',
        timeoutMs: null,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'settings.setNetwork: network.caCertFile: /no/such/ca.pem does not exist',
    })
    const huge = join(harness.workspace, 'huge.pem')
    await writeFile(huge, '')
    await truncate(huge, 5 * 1024 * 1024)
    await expect(
      client.request('settings.setNetwork', {
        httpProxy: '',
        noProxy: '',
        caCertFile: huge,
        timeoutMs: null,
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('larger than') })
    const notACa = join(harness.workspace, 'not-a-ca.pem')
    await writeFile(notACa, 'just some text\n')
    await expect(
      client.request('settings.setNetwork', {
        httpProxy: '',
        noProxy: '',
        caCertFile: notACa,
        timeoutMs: null,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('contains no PEM certificate'),
    })
    expect((await client.request('settings.get', {})).user.network).toEqual({})
  })

  it('adds, lists and removes rules with their scope and file', async () => {
    const client = await connect()
    const added = await client.request('settings.addRule', {
      list: 'allow',
      rule: 'npm test:*',
      scope: 'workspace',
    })
    expect(added.rules).toContainEqual({
      list: 'allow',
      rule: 'npm test:*',
      scope: 'workspace',
      source: join(harness.workspace, '.shellgate', 'settings.json'),
      trusted: true,
      broad: null,
    })
    const removed = await client.request('settings.removeRule', {
      list: 'allow',
      rule: 'npm test:*',
      scope: 'workspace',
    })
    expect(removed.rules).toEqual([])
  })

  it('adds a broad allow rule only when confirmed, and never trusts a repository file holding one in passing (issue 14.7)', async () => {
    const client = await connect()
    await expect(
      client.request('settings.addRule', { list: 'allow', rule: '*', scope: 'user' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message:
        'settings.addRule: confirmBroad: "*" would allow every command without asking. Confirm to add it anyway.',
    })
    expect((await client.request('settings.get', {})).rules).toEqual([])
    // Deny rules restrict: no confirmation needed.
    await client.request('settings.addRule', { list: 'deny', rule: 'rm:*', scope: 'user' })
    const added = await client.request('settings.addRule', {
      list: 'allow',
      rule: 'sudo:*',
      scope: 'local',
      confirmBroad: true,
    })
    expect(added.rules).toContainEqual(
      expect.objectContaining({
        rule: 'sudo:*',
        scope: 'local',
        broad: expect.stringContaining('as another user'),
      }),
    )

    await mkdir(join(harness.workspace, '.shellgate'))
    await writeFile(
      join(harness.workspace, '.shellgate', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['npm test:*', '**'] } }),
    )
    const reopened = await harness.restart()
    const again = createClient(
      contract,
      connectLoopback(
        createDispatcher(contract, createHandlers(reopened, testHandlerDeps()), { mapError: mapDomainError }),
        createEventHub(contract),
      ).transport,
    )
    const snapshot = await again.request('settings.get', {})
    expect(snapshot.warnings.map((w) => w.message).join('\n')).toContain(
      '"**" (careful: would allow every command without asking)',
    )
    await expect(again.request('settings.trustWorkspaceRules', {})).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(
        /^settings\.trustWorkspaceRules: confirmBroad: "\*\*" would allow every command/,
      ),
    })
    expect(
      (await again.request('settings.get', {})).rules.filter((r) => r.scope === 'workspace' && r.trusted),
    ).toEqual([])
    const trusted = await again.request('settings.trustWorkspaceRules', { confirmBroad: true })
    expect(trusted.rules.filter((r) => r.scope === 'workspace').map((r) => [r.rule, r.trusted])).toEqual([
      ['npm test:*', true],
      ['**', true],
    ])
  })

  it('refuses a shell kind this platform does not offer and a path that is not an executable', async () => {
    const client = await connect()
    await expect(client.request('settings.setShell', { kind: 'cmd' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^settings\.setShell: kind: "cmd" is not offered on linux/),
    })
    await expect(
      client.request('settings.setShell', { kind: 'bash', path: '/nonexistent/bash' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'settings.setShell: path: /nonexistent/bash is not an executable file',
    })
    expect((await client.request('settings.get', {})).user.shell).toEqual({ kind: 'auto' })
    await client.request('settings.setShell', { kind: 'bash', path: '/bin/bash' })
    expect((await client.request('settings.get', {})).user.shell).toEqual({ kind: 'bash', path: '/bin/bash' })
  })

  it('sets limits, refusing a maximum below the default and values past the schema bounds, naming the field', async () => {
    const client = await connect()
    const limits = {
      defaultTimeoutMs: 60_000,
      maxTimeoutMs: 300_000,
      maxOutputLength: 20_000,
      approvalTimeoutMs: 90_000,
    }
    const saved = await client.request('settings.setLimits', limits)
    expect(saved.user.limits).toEqual({
      defaultTimeoutMs: 60_000,
      maxTimeoutMs: 300_000,
      maxOutputLength: 20_000,
      terminalIdleMinutes: 30,
    })
    expect(saved.user.approvals.timeoutMs).toBe(90_000)
    await expect(
      client.request('settings.setLimits', { ...limits, maxTimeoutMs: 1_000 }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^settings\.setLimits: maxTimeoutMs: /),
    })
    await expect(
      client.request('settings.setLimits', { ...limits, defaultTimeoutMs: 700_000, maxTimeoutMs: 800_000 }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('defaultTimeoutMs'),
    })
    expect((await client.request('settings.get', {})).user.limits.defaultTimeoutMs).toBe(60_000)
  })

  it('persists mode and shell changes', async () => {
    const client = await connect()
    await client.request('settings.setMode', { mode: 'plan' })
    await client.request('settings.setShell', { kind: 'zsh' })
    const restarted = await harness.restart()
    expect(restarted.settings.user().permissions.mode).toBe('plan')
    expect(restarted.settings.user().shell.kind).toBe('zsh')
  })

  it('answers an unknown approval with a coded error', async () => {
    const client = await connect()
    await expect(
      client.request('approvals.answer', { id: 'nope', answer: { kind: 'allow_once' } }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    })
  })

  it('reads a task tail only for the session that owns it', async () => {
    const client = await connect()
    await client.request('settings.setMode', { mode: 'yolo' })
    const call = await client.request('bash.run', {
      sessionId: harness.sessionId,
      command: 'echo started; sleep 30',
      run_in_background: 'true',
    })
    expect(call.status).toBe('backgrounded')
    const other = await client.request('sessions.create', {})
    await expect(
      client.request('tasks.tail', { sessionId: other.id, taskId: call.taskId ?? '' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('No background task found'),
    })
    // The task has printed before it is stopped: a sandboxed start can take a while under load.
    await expect
      .poll(
        async () =>
          (await client.request('tasks.tail', { sessionId: harness.sessionId, taskId: call.taskId ?? '' }))
            .text,
        {
          timeout: 20_000,
        },
      )
      .toContain('started')
    const stopped = await client.request('tasks.stop', { taskId: call.taskId ?? '' })
    expect(stopped).toMatchObject({ status: 'stopped', stoppedBy: 'user' })
    const tail = await client.request('tasks.tail', {
      sessionId: harness.sessionId,
      taskId: call.taskId ?? '',
    })
    expect(tail.text).toContain('started')
  })

  it("shows a call's kept output only while its file is the one the call wrote (issue 15.3)", async () => {
    const client = await connect()
    // Unsandboxed, as a person may allow: the sandbox would hide the output folder anyway.
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } })
    const call = await client.request('bash.run', { sessionId: harness.sessionId, command: 'echo kept' })
    const path = call.outputPath ?? ''
    expect(
      (await client.request('bash.output', { sessionId: harness.sessionId, callId: call.id })).text,
    ).toBe('kept\n')
    const secret = join(harness.workspace, 'id_rsa')
    await writeFile(secret, 'PRIVATE KEY\n')
    await client.request('bash.run', {
      sessionId: harness.sessionId,
      command: `rm '${path}' && ln '${secret}' '${path}'`,
    })
    const view = await client.request('bash.output', { sessionId: harness.sessionId, callId: call.id })
    expect(view.text).not.toContain('PRIVATE KEY')
    expect(view.text).toMatch(/^\[output not read: .* is no longer the file the command wrote to\]$/)
  })

  it('reports a corrupt settings file as a warning with its backup', async () => {
    harness = await startCore()
    await harness.core.dispose()
    await mkdir(harness.home, { recursive: true })
    await writeFile(join(harness.home, 'settings.json'), '{ not json')
    const core = await harness.restart()
    const dispatcher = createDispatcher(contract, createHandlers(core, testHandlerDeps()), {
      mapError: mapDomainError,
    })
    const client = createClient(contract, connectLoopback(dispatcher, createEventHub(contract)).transport)
    const snapshot = await client.request('settings.get', {})
    expect(snapshot.warnings).toHaveLength(1)
    expect(snapshot.warnings[0]).toMatchObject({
      file: join(harness.home, 'settings.json'),
      backup: expect.stringContaining('.bak'),
    })
    expect(snapshot.user.permissions.mode).toBe('build')
  })

  it('tests one connection at a time: a second test while one runs is refused', async () => {
    const client = await connect()
    const server = createServer((_request, response) => {
      setTimeout(() => response.end('slow'), 400)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    try {
      const first = client.request('network.test', { url })
      await expect(client.request('network.test', { url })).rejects.toMatchObject({ code: 'denied' })
      expect(await first).toMatchObject({ status: 'ok', httpStatus: 200, bytes: 4 })
      expect(await client.request('network.test', { url })).toMatchObject({ status: 'ok' })
    } finally {
      server.close()
    }
  })
})
