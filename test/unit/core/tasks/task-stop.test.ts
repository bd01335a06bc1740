import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { stopTask } from '../../../../src/main/core/tasks/task-stop'
import {
  createTaskHarness,
  descendantsOf,
  isAlive,
  type TaskHarness,
  waitUntil,
} from './fixtures/task-harness'

let harness: TaskHarness

beforeEach(async () => {
  harness = await createTaskHarness()
})

afterEach(async () => {
  await harness.close()
})

/** A tree: a subshell in its own job with two sleepers, plus a sleeper of the main shell. */
const TREE = 'set -m; (sleep 300 & sleep 301 & wait) & sleep 302 & echo ready; wait'

describe('stop', () => {
  it('kills the whole tree, records the user, and emits the completion', async () => {
    const taskId = await harness.background(TREE)
    const pid = harness.registry.get(taskId)!.pid!
    await waitUntil('the tree is up', () => descendantsOf(pid).length >= 4)
    const tree = [pid, ...descendantsOf(pid)]

    const stopped = await harness.registry.stop(taskId, 'user')
    expect(stopped).toMatchObject({ ok: true, settled: true, task: { status: 'stopped', stoppedBy: 'user' } })
    await waitUntil('every process of the tree is gone', () => tree.every((p) => !isAlive(p)), 8_000)
    const completed = harness.events.filter((e) => e.type === 'completed')
    expect(completed).toHaveLength(1)
    expect(completed[0]!.task).toMatchObject({ taskId, status: 'stopped', stoppedBy: 'user' })
  })

  it('through TaskStop records the caller and accepts the old shell_id name', async () => {
    const first = await harness.background('sleep 300')
    const result = await stopTask(harness.registry, { task_id: first }, 'caller')
    expect(result).toMatchObject({ ok: true, task: { status: 'stopped', stoppedBy: 'caller' } })
    expect(result.message).toBe(`Successfully stopped task ${first} (sleep 300)`)

    const second = await harness.background('sleep 300')
    expect(await stopTask(harness.registry, { shell_id: second }, 'caller')).toMatchObject({ ok: true })
  })

  it('refuses unknown ids, other sessions, finished tasks and a missing id', async () => {
    const taskId = await harness.background('sleep 300', { sessionId: 'owner' })
    expect(await stopTask(harness.registry, { task_id: 'nope' }, 'caller')).toMatchObject({
      ok: false,
      code: 'not_found',
      message: 'No background task found with ID: nope',
    })
    expect(await stopTask(harness.registry, { task_id: taskId }, 'caller', 'intruder')).toMatchObject({
      ok: false,
      code: 'not_found',
    })
    expect(harness.registry.get(taskId)?.status).toBe('running')
    await stopTask(harness.registry, { task_id: taskId }, 'caller', 'owner')
    expect(await stopTask(harness.registry, { task_id: taskId }, 'user')).toMatchObject({
      ok: false,
      code: 'not_running',
    })
    expect(await stopTask(harness.registry, {}, 'user')).toMatchObject({ ok: false, code: 'invalid_input' })
  })

  it('stops all running tasks of one session, or all of them', async () => {
    const a = await harness.background('sleep 300', { sessionId: 'one' })
    const b = await harness.background('sleep 300', { sessionId: 'two' })
    const c = await harness.background('sleep 300', { sessionId: 'two' })
    const results = await harness.registry.stopAll('user', 'two')
    expect(results.map((r) => r.ok && r.task.taskId).sort()).toEqual([b, c].sort())
    expect(harness.registry.get(a)?.status).toBe('running')
    await harness.registry.stopAll('user')
    expect(harness.registry.get(a)?.status).toBe('stopped')
  })
})
