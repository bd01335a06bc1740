import { isPidGone as isGone } from '../exec/process-checks'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BashCall } from '../../../../src/shared/ipc/domains/bash'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness
afterEach(() => harness?.dispose())

function callEvent(h: CoreHarness, command: string, status: BashCall['status']): Promise<BashCall> {
  return waitFor(
    () =>
      h.events
        .map((event) => (event.name === 'bash.call' ? (event.payload as BashCall) : null))
        .find((call) => call?.command === command && call.status === status),
    `${command} ${status}`,
  )
}

function readPid(h: CoreHarness, file: string): Promise<number> {
  return waitFor(() => {
    try {
      return Number(readFileSync(join(h.workspace, file), 'utf8').trim()) || null
    } catch {
      return null
    }
  }, file).then(Number)
}

describe('bash.cancel', () => {
  it('kills a running foreground call and its whole tree', async () => {
    harness = await startCore()
    // $! inside the sandbox's PID namespace is no host pid, so these pid checks run unsandboxed;
    // the sandboxed tree kill is checked by host pid in core/sandbox/executor-inside.test.ts.
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } })
    const command = 'sleep 300 & echo $! > child.pid; wait'
    const running = harness.core.bash.run(harness.sessionId, { command, timeout: 60_000 })
    const { id } = await callEvent(harness, command, 'running')
    const childPid = await readPid(harness, 'child.pid')
    const cancelled = await harness.core.bash.cancel(harness.sessionId, id)
    expect(cancelled).toMatchObject({ id, status: 'cancelled', taskId: null, isError: true })
    expect((await running).status).toBe('cancelled')
    await waitFor(() => isGone(childPid), 'the grandchild to die')
    expect(harness.core.tasks.get(id)).toBeNull()
  })

  it('withdraws a pending approval and runs nothing', async () => {
    harness = await startCore()
    const command = 'touch never-made'
    const running = harness.core.bash.run(harness.sessionId, { command })
    const { id } = await callEvent(harness, command, 'waiting_for_approval')
    await waitFor(() => harness.core.approvals.list()[0], 'the approval')
    const cancelled = await harness.core.bash.cancel(harness.sessionId, id)
    expect(cancelled.status).toBe('denied')
    expect(await running).toEqual(cancelled)
    expect(harness.core.approvals.list()).toEqual([])
    expect(existsSync(join(harness.workspace, 'never-made'))).toBe(false)
  })
})

describe('bash.background', () => {
  it('commits a running foreground call to a background task at once, alive', async () => {
    harness = await startCore()
    // $! inside the sandbox's PID namespace is no host pid, so these pid checks run unsandboxed;
    // the sandboxed tree kill is checked by host pid in core/sandbox/executor-inside.test.ts.
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } })
    const command = 'echo $$ > shell.pid; for i in $(seq 1 600); do echo tick $i; sleep 0.05; done'
    const running = harness.core.bash.run(harness.sessionId, { command, timeout: 600_000 })
    const { id } = await callEvent(harness, command, 'running')
    const shellPid = await readPid(harness, 'shell.pid')
    const moved = await harness.core.bash.background(harness.sessionId, id)
    expect(moved).toMatchObject({ id, status: 'backgrounded', taskId: id })
    expect(moved.content).toContain(`Command running in background with ID: ${id}`)
    expect(await running).toEqual(moved)
    expect(harness.core.tasks.get(id)).toMatchObject({ status: 'running', sessionId: harness.sessionId })
    expect(isGone(shellPid)).toBe(false)
    // Once a task, cancel no longer applies: the task is stopped as a task.
    await expect(harness.core.bash.cancel(harness.sessionId, id)).rejects.toThrow(/no call/)
    const stopped = await harness.core.tasks.stop(id, 'user')
    expect(stopped).toMatchObject({ ok: true, task: { status: 'stopped' } })
    await waitFor(() => isGone(shellPid), 'the task shell to die')
  })

  it('refuses a call waiting for approval, a leading sleep, an unknown id and another session', async () => {
    harness = await startCore()
    const waiting = 'touch later'
    const pending = harness.core.bash.run(harness.sessionId, { command: waiting })
    const { id: waitingId } = await callEvent(harness, waiting, 'waiting_for_approval')
    await expect(harness.core.bash.background(harness.sessionId, waitingId)).rejects.toThrow(
      /waits for approval/,
    )
    const other = await harness.core.sessions.create({ title: 'Other' })
    await expect(harness.core.bash.cancel(other.id, waitingId)).rejects.toThrow(
      `callId: no call "${waitingId}" is running in this session`,
    )
    await expect(harness.core.bash.background(harness.sessionId, 'no-such-call')).rejects.toThrow(
      /no call "no-such-call"/,
    )
    await harness.core.bash.cancel(harness.sessionId, waitingId)
    await pending

    const sleeping = harness.core.bash.run(harness.sessionId, { command: 'sleep 30', timeout: 60_000 })
    const { id: sleepId } = await callEvent(harness, 'sleep 30', 'running')
    await expect(harness.core.bash.background(harness.sessionId, sleepId)).rejects.toThrow(
      /starts with sleep/,
    )
    await harness.core.bash.cancel(harness.sessionId, sleepId)
    expect((await sleeping).status).toBe('cancelled')
  })
})
