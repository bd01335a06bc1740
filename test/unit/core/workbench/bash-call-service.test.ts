import { isPidGone as isGone } from '../exec/process-checks'
import { existsSync } from 'node:fs'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkbenchError } from '../../../../src/main/core/workbench/workbench-error'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness

afterEach(() => harness?.dispose())

async function auditLines(home: string) {
  const text = await readFile(join(home, 'audit.jsonl'), 'utf8')
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}

function pendingApproval(h: CoreHarness) {
  return waitFor(() => h.core.approvals.list()[0], 'a pending approval')
}

describe('the Bash call path', () => {
  it('runs a read-only command at once and records it as read_only', async () => {
    harness = await startCore()
    const call = await harness.core.bash.run(harness.sessionId, { command: 'echo hello && pwd' })
    expect(call).toMatchObject({ status: 'completed', exitCode: 0, isError: false })
    expect(call.content).toBe(`hello\n${harness.workspace}`)
    expect(harness.core.approvals.list()).toEqual([])
    const [line] = await auditLines(harness.home)
    expect(line).toMatchObject({
      command: 'echo hello && pwd',
      decidedBy: 'read_only',
      verdict: 'allow',
      status: 'completed',
      exitCode: 0,
    })
    expect(line).not.toHaveProperty('output')
  })

  it('asks before a writer, and allow once runs it exactly once', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, {
      command: 'touch made-by-approval',
      description: 'Create a file',
    })
    const approval = await pendingApproval(harness)
    expect(approval).toMatchObject({
      command: 'touch made-by-approval',
      cwd: harness.workspace,
      mode: 'build',
      description: 'Create a file',
    })
    expect(approval.why.nonReadOnly.map((part) => part.text)).toEqual(['touch made-by-approval'])
    expect(approval.why.suggestedRules).toEqual(['touch:*'])
    expect(existsSync(join(harness.workspace, 'made-by-approval'))).toBe(false)
    // A reloaded window asks for the history: the waiting call must be in it.
    expect(harness.core.sessions.get(harness.sessionId).history.list().at(-1)).toMatchObject({
      command: 'touch made-by-approval',
      status: 'waiting_for_approval',
    })
    await harness.core.approvals.answer(approval.id, { kind: 'allow_once' })
    const call = await running
    expect(call.status).toBe('completed')
    expect(existsSync(join(harness.workspace, 'made-by-approval'))).toBe(true)
    expect((await auditLines(harness.home)).at(-1)).toMatchObject({
      decidedBy: 'user_once',
      approvedBy: 'user',
    })
    // Allow once is not a rule: the next writer asks again.
    const again = harness.core.bash.run(harness.sessionId, { command: 'touch second' })
    const next = await pendingApproval(harness)
    await harness.core.approvals.answer(next.id, { kind: 'deny' })
    expect((await again).status).toBe('denied')
  })

  it('always allow saves the (edited) rule, and the same command then runs without asking', async () => {
    harness = await startCore()
    const first = harness.core.bash.run(harness.sessionId, { command: 'mkdir -p out/a' })
    const approval = await pendingApproval(harness)
    await harness.core.approvals.answer(approval.id, {
      kind: 'always_allow',
      rule: 'mkdir -p:*',
      scope: 'workspace',
    })
    expect((await first).status).toBe('completed')
    const settings = JSON.parse(
      await readFile(join(harness.workspace, '.shellgate', 'settings.json'), 'utf8'),
    )
    expect(settings.permissions.allow).toEqual(['mkdir -p:*'])
    const second = await harness.core.bash.run(harness.sessionId, { command: 'mkdir -p out/b' })
    expect(second).toMatchObject({
      status: 'completed',
      decision: { decidedBy: 'rule.allow', rule: 'mkdir -p:*' },
    })
    expect(harness.core.approvals.list()).toEqual([])
    expect((await auditLines(harness.home)).at(-1)).toMatchObject({ decidedBy: 'rule', rule: 'mkdir -p:*' })
  })

  it('deny runs nothing and hands the message back as the result', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, { command: 'touch never' })
    const approval = await pendingApproval(harness)
    await harness.core.approvals.answer(approval.id, {
      kind: 'deny',
      message: 'Use the build script instead.',
    })
    const call = await running
    expect(call).toMatchObject({ status: 'denied', isError: true, content: 'Use the build script instead.' })
    expect(existsSync(join(harness.workspace, 'never'))).toBe(false)
    expect((await auditLines(harness.home)).at(-1)).toMatchObject({
      verdict: 'deny',
      decidedBy: 'user_deny',
      status: 'denied',
    })
  })

  it('plan mode denies a writer without asking and still runs readers', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ permissions: { mode: 'plan' } })
    const writer = await harness.core.bash.run(harness.sessionId, { command: 'touch planned' })
    expect(writer.status).toBe('denied')
    expect(writer.content).toContain('Permission denied')
    expect(existsSync(join(harness.workspace, 'planned'))).toBe(false)
    expect((await harness.core.bash.run(harness.sessionId, { command: 'ls' })).status).toBe('completed')
    expect((await auditLines(harness.home)).find((line) => line.command === 'touch planned')).toMatchObject({
      decidedBy: 'mode',
    })
  })

  it('moves a command that outlives its timeout to the background instead of killing it', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const call = await harness.core.bash.run(harness.sessionId, {
      command: 'for i in $(seq 1 400); do echo line $i; sleep 0.05; done',
      timeout: 500,
    })
    expect(call.status).toBe('backgrounded')
    expect(call.taskId).toBe(call.id)
    expect(call.content).toContain(`Command running in background with ID: ${call.taskId}`)
    const task = await waitFor(() => harness.core.tasks.get(call.taskId ?? ''), 'the task')
    expect(task.status).toBe('running')
    // Tasks show what was asked for, not the snapshot-sourcing script around it.
    expect(task.command).toBe('for i in $(seq 1 400); do echo line $i; sleep 0.05; done')
    // Backgrounded, not killed: the output keeps growing after the call returned.
    const before = (await harness.core.tasks.info(task.taskId))?.bytes ?? 0
    let after = before
    await waitFor(() => {
      void harness.core.tasks.info(task.taskId).then((info) => {
        after = info?.bytes ?? after
      })
      return after > before
    }, 'the background output to grow')
    const stopped = await harness.core.tasks.stop(task.taskId, 'user')
    expect(stopped).toMatchObject({ ok: true, task: { status: 'stopped', stoppedBy: 'user' } })
    // The audit log says both that it moved to the background and how it ended.
    let lines: { taskId?: string; status: string }[] = []
    await waitFor(() => {
      void auditLines(harness.home).then((read) => {
        lines = read
      })
      return lines.filter((line) => line.taskId === call.taskId).length === 2
    }, 'the second audit line')
    expect(lines.filter((line) => line.taskId === call.taskId).map((line) => line.status)).toEqual([
      'backgrounded',
      'stopped',
    ])
    expect(harness.events.some((event) => event.name === 'tasks.updated')).toBe(true)
  })

  it('a leading sleep is killed at its timeout rather than backgrounded', async () => {
    harness = await startCore()
    const call = await harness.core.bash.run(harness.sessionId, { command: 'sleep 30', timeout: 300 })
    expect(call.status).toBe('timed_out')
    expect(call.taskId).toBeNull()
    expect(call.content).toMatch(/timed out/)
  })

  it('keeps a cd inside the workspace for the next call and resets one outside it', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    await harness.core.bash.run(harness.sessionId, { command: 'mkdir -p sub && cd sub' })
    expect((await harness.core.bash.run(harness.sessionId, { command: 'pwd' })).content).toBe(
      join(harness.workspace, 'sub'),
    )
    const outside = await harness.core.bash.run(harness.sessionId, { command: 'cd /' })
    expect(outside.content).toContain(`Shell cwd was reset to ${harness.workspace}`)
    expect((await harness.core.bash.run(harness.sessionId, { command: 'pwd' })).content).toBe(
      harness.workspace,
    )
  })

  it('refuses bad input naming the field, and runs nothing', async () => {
    harness = await startCore()
    const error = await harness.core.bash
      .run(harness.sessionId, { command: 'ls', timeout: 'soon' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WorkbenchError)
    expect((error as WorkbenchError).message).toMatch(/^timeout: /)
    await expect(harness.core.bash.run('no-such-session', { command: 'ls' })).rejects.toThrow(
      'no open session',
    )
    expect(existsSync(join(harness.home, 'audit.jsonl'))).toBe(false)
  })

  it('closing a session denies its pending approval and forgets the session', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, { command: 'touch orphan' })
    await pendingApproval(harness)
    await harness.core.closeSession(harness.sessionId)
    expect((await running).status).toBe('denied')
    expect(harness.core.sessions.list().map((session) => session.id)).not.toContain(harness.sessionId)
    expect(existsSync(join(harness.workspace, 'orphan'))).toBe(false)
  })

  it('sessions and their history survive a restart', async () => {
    harness = await startCore()
    await harness.core.bash.run(harness.sessionId, { command: 'echo remembered' })
    const second = await harness.core.sessions.create({ title: 'Second' })
    await harness.core.dispose()
    const restarted = await harness.restart()
    expect(
      restarted.sessions.list().map((session) => [session.id, session.title, session.shell.restore]),
    ).toEqual([
      [harness.sessionId, 'Session 1', 'restored'],
      [second.id, 'Second', 'restored'],
    ])
    const history = restarted.sessions.get(harness.sessionId).history.list()
    expect(history.map((call) => [call.command, call.content])).toEqual([['echo remembered', 'remembered']])
  })

  it('dispose cancels a running foreground call and kills its tree, and refuses new calls', async () => {
    harness = await startCore()
    // `$!` must be a host pid for isGone(); inside the sandbox's PID namespace it is not (the
    // sandboxed variant of "cancel kills the tree" is in test/unit/core/sandbox/executor-inside).
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } })
    const running = harness.core.bash.run(harness.sessionId, {
      command: 'sleep 300 & echo $! > child.pid; wait',
      timeout: 60_000,
    })
    const childPid = Number(
      await waitFor(() => {
        try {
          return readFileSync(join(harness.workspace, 'child.pid'), 'utf8').trim()
        } catch {
          return null
        }
      }, 'the child pid'),
    )
    await harness.core.dispose()
    expect((await running).status).toBe('cancelled')
    await waitFor(() => isGone(childPid), 'the child to be gone')
    await expect(harness.core.bash.run(harness.sessionId, { command: 'ls' })).rejects.toThrow('shutting down')
  })

  it('refuses an always-allow rule that would not allow the command on the card, and keeps the card', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, { command: 'touch kept-pending' })
    const approval = await pendingApproval(harness)
    const refused = await harness.core.approvals.answer(approval.id, {
      kind: 'always_allow',
      rule: 'rm:*',
      scope: 'user',
    })
    expect(refused).toMatchObject({ ok: false, code: 'invalid_input', field: 'rule' })
    expect(harness.core.settings.user().permissions.allow).toEqual([])
    expect(harness.core.approvals.list().map((pending) => pending.id)).toEqual([approval.id])
    await harness.core.approvals.answer(approval.id, {
      kind: 'always_allow',
      rule: 'touch kept-pending',
      scope: 'user',
    })
    expect((await running).status).toBe('completed')
    expect(harness.core.settings.user().permissions.allow).toEqual(['touch kept-pending'])
  })
})
