import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ExecutionPort } from '../../../../src/main/core/exec/types'
import { runWithBackgroundLifecycle } from '../../../../src/main/core/tasks/background-lifecycle'
import { formatBackgroundedContent } from '../../../../src/main/core/tasks/background-content'
import { isAutoBackgroundEligible } from '../../../../src/main/core/tasks/background-policy'
import { createTaskHarness, fileSize, type TaskHarness, waitUntil } from './fixtures/task-harness'

let harness: TaskHarness

beforeEach(async () => {
  harness = await createTaskHarness()
})

afterEach(async () => {
  await harness.close()
})

/** Prints a numbered line every 50 ms for about 30 s. */
const LONG_PRINTER = 'for i in $(seq 1 600); do echo "line $i"; sleep 0.05; done'

describe('auto_on_timeout', () => {
  it('returns an ordinary result when the command ends before the deadline', async () => {
    const outcome = await harness.run('echo hello', { mode: 'auto_on_timeout', deadlineMs: 20_000 })
    expect(outcome.kind).toBe('foreground')
    if (outcome.kind !== 'foreground') return
    expect(outcome.result).toMatchObject({ status: 'completed', exitCode: 0, totalBytes: 6 })
    expect(await harness.registry.list()).toEqual([])
    expect(harness.events).toEqual([])
  })

  it('moves a long command to the background at the deadline, where it keeps running and printing', async () => {
    const outcome = await harness.run(LONG_PRINTER, { mode: 'auto_on_timeout', deadlineMs: 300 })
    expect(outcome.kind).toBe('backgrounded')
    if (outcome.kind !== 'backgrounded') return
    expect(outcome.task).toMatchObject({ status: 'running', outputPath: outcome.outputPath })
    expect(outcome.task.pid).toEqual(expect.any(Number))
    const task = harness.registry.get(outcome.task.taskId)
    expect(task).toMatchObject({ status: 'running', command: LONG_PRINTER, sessionId: 'session-1' })
    expect(harness.events.map((e) => e.type)).toEqual(['started'])

    const sizeAtCommit = await fileSize(outcome.outputPath)
    await waitUntil(
      'the output grows after the deadline',
      async () => (await fileSize(outcome.outputPath)) > sizeAtCommit + 50,
    )
    expect(harness.registry.get(outcome.task.taskId)?.status).toBe('running')
  })

  it('detaches the caller abort once backgrounded, but honours it in the foreground', async () => {
    const caller = new AbortController()
    const outcome = await harness.run(
      LONG_PRINTER,
      { mode: 'auto_on_timeout', deadlineMs: 300 },
      { signal: caller.signal },
    )
    expect(outcome.kind).toBe('backgrounded')
    caller.abort()
    const size = await fileSize(outcome.outputPath)
    await waitUntil(
      'the output grows after the caller aborted',
      async () => (await fileSize(outcome.outputPath)) > size + 50,
    )
    expect(harness.registry.get(outcome.kind === 'backgrounded' ? outcome.task.taskId : '')?.status).toBe(
      'running',
    )

    const foregroundCaller = new AbortController()
    const running = harness.run(
      LONG_PRINTER,
      { mode: 'auto_on_timeout', deadlineMs: 20_000 },
      { signal: foregroundCaller.signal },
    )
    setTimeout(() => foregroundCaller.abort(), 200)
    const cancelled = await running
    expect(cancelled.kind === 'foreground' && cancelled.result.status).toBe('cancelled')
  })

  it("forwards progress to the caller's hooks only while in the foreground", async () => {
    const seen: number[] = []
    const outcome = await harness.run(
      LONG_PRINTER,
      { mode: 'auto_on_timeout', deadlineMs: 3_500 },
      { hooks: { onProgress: (sample) => seen.push(sample.elapsedMs) } },
    )
    const committedAt = Date.now()
    expect(outcome.kind).toBe('backgrounded')
    // The port reports progress after 2 s, then every second: the caller saw at least one sample...
    expect(seen.length).toBeGreaterThan(0)
    const before = seen.length
    const taskId = outcome.kind === 'backgrounded' ? outcome.task.taskId : ''
    // ...and none after the commit, although the task keeps running and the port keeps sampling.
    await waitUntil('two more port samples would have come', () => Date.now() > committedAt + 2_200)
    expect(harness.registry.get(taskId)?.status).toBe('running')
    expect(seen).toHaveLength(before)
  })

  it('refuses a deadline that is not a positive number', async () => {
    await expect(harness.run('echo x', { mode: 'auto_on_timeout', deadlineMs: 0 })).rejects.toThrow(
      /deadlineMs must be a positive/,
    )
  })
})

describe('explicit (run_in_background)', () => {
  it('commits at spawn and emits a completion event when the command exits', async () => {
    const taskId = await harness.background('echo started; sleep 0.3; echo done; exit 3')
    expect(harness.registry.get(taskId)?.status).toBe('running')
    await waitUntil('the task completes', () => harness.events.some((e) => e.type === 'completed'))
    const completed = harness.events.find((e) => e.type === 'completed')!.task
    expect(completed).toMatchObject({
      taskId,
      status: 'failed',
      exitCode: 3,
      bytes: 13,
      stoppedBy: null,
      notified: false,
    })
    expect(completed.endedAt).not.toBeNull()
  })

  it('reports a spawn failure as an ordinary result, with no task', async () => {
    const outcome = await harness.run(
      'echo hi',
      { mode: 'explicit' },
      { outputPath: '/nonexistent-dir/out.log' },
    )
    expect(outcome.kind === 'foreground' && outcome.result.status).toBe('spawn_error')
    expect(await harness.registry.list()).toEqual([])
  })

  it('kills a background task whose output file passes the cap', async () => {
    const taskId = await harness.background('yes "a line of output"', { capBytes: 256 * 1024 })
    await waitUntil('the capped task ends', () => harness.registry.get(taskId)?.status !== 'running')
    const task = await harness.registry.info(taskId)
    expect(task).toMatchObject({ status: 'failed', outputLimitReached: true, stoppedBy: null })
    expect(task!.bytes).toBeGreaterThanOrEqual(256 * 1024)
  })
})

describe('the output cap at the moment of commit', () => {
  it('aborts at once a task whose file already passed the cap when it moves to the background', async () => {
    // The real port, with its own size guard pushed out of reach (as with the seed's 5 s check), so
    // only the lifecycle's commit-time check can catch the overflow.
    const slowGuard: ExecutionPort = {
      execute: (request, hooks) =>
        harness.port.execute(
          {
            ...request,
            output:
              request.output?.mode === 'file'
                ? { ...request.output, capBytes: 10 * 1024 ** 3 }
                : request.output,
          },
          hooks,
        ),
    }
    const outputPath = join(harness.root, 'capped.log')
    const outcome = await runWithBackgroundLifecycle(
      slowGuard,
      harness.registry,
      {
        command: {
          mode: 'shell',
          command: 'head -c 200000 /dev/zero; sleep 300',
          shellProfile: 'posix-bash',
        },
        cwd: harness.root,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
      // After the port's first progress sample (2 s), which reports the 200000 bytes.
      { mode: 'auto_on_timeout', deadlineMs: 3_000 },
      { sessionId: 'session-1', outputPath, capBytes: 100_000 },
    )
    expect(outcome.kind).toBe('backgrounded')
    const taskId = outcome.kind === 'backgrounded' ? outcome.task.taskId : ''
    await waitUntil('the capped task ends', () => harness.registry.get(taskId)?.status !== 'running')
    expect(harness.registry.get(taskId)).toMatchObject({
      status: 'failed',
      outputLimitReached: true,
      stoppedBy: null,
    })
  })
})

describe('policy and model-facing text', () => {
  it.each([
    ['sleep 10', false],
    ['  sleep 1 && echo', false],
    ['sleepy', true],
    ['echo sleep', true],
    ['npm test', true],
  ])('%j is eligible for auto background: %s', (command, eligible) => {
    expect(isAutoBackgroundEligible(command)).toBe(eligible)
  })

  it('names the id, the output file and how to read it', () => {
    const text = formatBackgroundedContent('ab12cd34', '/h/exec/s1/call-1-stdout.log')
    expect(text.split('\n')[0]).toBe('Command running in background with ID: ab12cd34')
    expect(text).toContain('/h/exec/s1/call-1-stdout.log')
    // The tools an MCP agent has: Shellgate provides no Read, TaskOutput or TaskStop.
    expect(text).toMatch(/task_output with task_id "ab12cd34"/)
    expect(text).toMatch(/task_stop/)
    expect(text).not.toMatch(/Read tool|TaskOutput|TaskStop/)
  })
})
