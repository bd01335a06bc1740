import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { waitForTask } from '../../../../src/main/core/workbench/task-wait'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness
afterEach(() => harness?.dispose())

const approval = (h: CoreHarness) => waitFor(() => h.core.approvals.list()[0], 'a pending approval')

describe("the caller's clock (answerWithinMs)", () => {
  it('a command approved before the deadline runs in the same call and answers with its output', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(
      harness.sessionId,
      { command: 'touch approved-now && echo ran' },
      { answerWithinMs: 20_000 },
    )
    await harness.core.approvals.answer((await approval(harness)).id, { kind: 'allow_once' })
    expect(await running).toMatchObject({ status: 'completed', content: 'ran', taskId: null })
    expect(harness.core.bash.promisedTask((await running).id)).toBeNull()
  })

  it('a command still running at the answer deadline becomes a task, and tasks.wait reads its output', async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const call = await harness.core.bash.run(
      harness.sessionId,
      { command: 'sleep 0.1; for i in 1 2 3; do sleep 0.3; echo step $i; done', timeout: 90_000 },
      { answerWithinMs: 300 },
    )
    expect(call).toMatchObject({ status: 'backgrounded', taskId: call.id })
    expect(call.content).toContain(`Command running in background with ID: ${call.id}`)
    expect(call.content).toContain('still running when this call had to answer')
    expect(call.content).toContain(`task_output with task_id "${call.id}"`)
    const done = await waitForTask(harness.core, {
      sessionId: harness.sessionId,
      taskId: call.id,
      timeoutMs: 10_000,
    })
    expect(done).toMatchObject({
      retrievalStatus: 'success',
      task: { status: 'completed', exitCode: 0, message: null },
    })
    expect(done.task.output).toBe('step 1\nstep 2\nstep 3\n')
  })

  it('a leading sleep longer than the deadline waits as a task and still ends at its own timeout', async () => {
    harness = await startCore()
    const call = await harness.core.bash.run(
      harness.sessionId,
      { command: 'sleep 30', timeout: 1_500 },
      { answerWithinMs: 200 },
    )
    expect(call.status).toBe('backgrounded')
    const ended = await waitForTask(harness.core, {
      sessionId: harness.sessionId,
      taskId: call.id,
      timeoutMs: 10_000,
    })
    expect(ended).toMatchObject({ retrievalStatus: 'success', task: { status: 'stopped' } })
  })

  it('a call still waiting for approval at the deadline answers then, and runs as its promised task when allowed', async () => {
    harness = await startCore()
    const call = await harness.core.bash.run(
      harness.sessionId,
      { command: 'touch approved-later && echo made it' },
      { answerWithinMs: 300, callId: 'promise-allow-1' },
    )
    expect(call).toMatchObject({ id: 'promise-allow-1', status: 'waiting_for_approval', taskId: call.id })
    expect(call.content).toBe(
      [
        `Waiting for your approval in Shellgate — it will run as task ${call.id}.`,
        `Nothing has run yet. Call task_output with task_id "${call.id}" to wait for the decision and then the output; if the person denies it, task_output returns their message.`,
      ].join('\n'),
    )
    const early = await waitForTask(harness.core, {
      sessionId: harness.sessionId,
      taskId: call.id,
      block: false,
    })
    expect(early).toMatchObject({ retrievalStatus: 'not_ready', task: { status: 'waiting_for_approval' } })
    const waiting = waitForTask(harness.core, {
      sessionId: harness.sessionId,
      taskId: call.id,
      timeoutMs: 20_000,
    })
    await harness.core.approvals.answer((await approval(harness)).id, { kind: 'allow_once' })
    const read = await waiting
    expect(read).toMatchObject({ retrievalStatus: 'success', task: { status: 'completed', exitCode: 0 } })
    expect(read.task.output).toBe('made it\n')
    expect(existsSync(join(harness.workspace, 'approved-later'))).toBe(true)
    expect(harness.core.tasks.get(call.id)?.status).toBe('completed')
  })

  it("a denied promised task returns the person's message, and nothing runs", async () => {
    harness = await startCore()
    const call = await harness.core.bash.run(
      harness.sessionId,
      { command: 'touch denied-later' },
      { answerWithinMs: 300 },
    )
    await harness.core.approvals.answer((await approval(harness)).id, {
      kind: 'deny',
      message: 'not on my laptop',
    })
    const read = await waitForTask(harness.core, {
      sessionId: harness.sessionId,
      taskId: call.id,
      timeoutMs: 10_000,
    })
    expect(read).toMatchObject({
      retrievalStatus: 'success',
      task: { status: 'denied', message: 'not on my laptop', output: 'not on my laptop' },
    })
    expect(existsSync(join(harness.workspace, 'denied-later'))).toBe(false)
  })

  it('the caller leaving cancels its foreground call but not a promised task', async () => {
    harness = await startCore()
    // $$ inside the sandbox's PID namespace is no host pid; the sandboxed kill has its own test.
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } })
    const caller = new AbortController()
    const running = harness.core.bash.run(
      harness.sessionId,
      { command: 'echo $$ > fg.pid; exec sleep 300' },
      { answerWithinMs: 60_000, signal: caller.signal },
    )
    const pid = await waitFor(() => {
      try {
        return Number(readFileSync(join(harness.workspace, 'fg.pid'), 'utf8')) || null
      } catch {
        return null
      }
    }, 'the pid')
    caller.abort()
    expect((await running).status).toBe('cancelled')
    await waitFor(() => {
      try {
        process.kill(pid, 0)
        return false
      } catch {
        return true
      }
    }, 'the process to die')

    await harness.core.settings.updateUser({ permissions: { mode: 'build' } })
    const second = new AbortController()
    const promised = await harness.core.bash.run(
      harness.sessionId,
      { command: 'touch after-the-agent-left' },
      { answerWithinMs: 300, signal: second.signal },
    )
    second.abort()
    await harness.core.approvals.answer((await approval(harness)).id, { kind: 'allow_once' })
    const read = await waitForTask(harness.core, {
      sessionId: harness.sessionId,
      taskId: promised.id,
      timeoutMs: 10_000,
    })
    expect(read.task.status).toBe('completed')
    expect(existsSync(join(harness.workspace, 'after-the-agent-left'))).toBe(true)
  })

  it("refuses a call id that is another session's background task", async () => {
    harness = await startCore()
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const task = await harness.core.bash.run(
      harness.sessionId,
      { command: 'sleep 30', run_in_background: true },
      { callId: 'task-id-taken' },
    )
    expect(task).toMatchObject({ status: 'backgrounded', taskId: 'task-id-taken' })
    const other = await harness.core.sessions.create({ title: 'Other' })
    await expect(
      harness.core.bash.run(other.id, { command: 'ls' }, { callId: 'task-id-taken' }),
    ).rejects.toThrow('callId: call id "task-id-taken" is already used')
    // Nothing ran under the taken id: the first session's task is untouched.
    expect(harness.core.tasks.get('task-id-taken')).toMatchObject({
      sessionId: harness.sessionId,
      status: 'running',
    })
  })

  it('refuses a reused call id and another session reading a promised task', async () => {
    harness = await startCore()
    const call = await harness.core.bash.run(
      harness.sessionId,
      { command: 'touch x' },
      { answerWithinMs: 300, callId: 'reused-id-1' },
    )
    await expect(
      harness.core.bash.run(harness.sessionId, { command: 'ls' }, { callId: 'reused-id-1' }),
    ).rejects.toThrow('callId: call id "reused-id-1" is already used')
    const other = await harness.core.sessions.create({ title: 'Other' })
    await expect(waitForTask(harness.core, { sessionId: other.id, taskId: call.id })).rejects.toThrow(
      `No background task found with ID: ${call.id}`,
    )
  })
})
