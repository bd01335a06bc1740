import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FOLLOW_INTERVAL_MS } from '../../../../src/main/core/tasks/follow-output'
import { followTaskOutput, type TaskOutputUpdate } from '../../../../src/main/core/tasks/follow-task-output'
import { createTaskHarness, type TaskHarness, waitUntil } from './fixtures/task-harness'

let harness: TaskHarness

beforeEach(async () => {
  harness = await createTaskHarness()
})

afterEach(async () => {
  await harness.close()
})

describe('followTaskOutput', () => {
  it('streams a growing tail, ends with the final output, and stops by itself', async () => {
    const taskId = await harness.background('for i in $(seq 1 10); do echo "line $i"; sleep 0.1; done')
    const updates: TaskOutputUpdate[] = []
    followTaskOutput(harness.registry, taskId, 'session-1', (update) => updates.push(update))
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status === 'completed')
    await waitUntil('the final tail arrives', () => updates.at(-1)?.tail.endsWith('line 10\n') === true)
    // Several updates, each larger than the last: the tail follows the output as it grows.
    expect(updates.length).toBeGreaterThan(2)
    const sizes = updates.map((u) => u.totalBytes)
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes)
    expect(new Set(sizes).size).toBe(sizes.length)
    expect(updates.at(-1)).toMatchObject({ taskId, sessionId: 'session-1', totalBytes: 71 })
    const count = updates.length
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(updates).toHaveLength(count)
  })

  it('coalesces a task that prints as fast as it can to at most one update per interval', async () => {
    // Tens of thousands of separate writes in about a second; the follower forwards ~20 a second.
    const taskId = await harness.background('i=0; while [ $i -lt 40000 ]; do echo $i; i=$((i+1)); done')
    const updates: TaskOutputUpdate[] = []
    const started = Date.now()
    followTaskOutput(harness.registry, taskId, 'session-1', (update) => updates.push(update))
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status === 'completed')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const seconds = (Date.now() - started) / 1000
    expect(updates.length).toBeGreaterThan(1)
    // An upper bound on the rate, from the interval, with one extra for the final flush.
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(seconds * (1000 / FOLLOW_INTERVAL_MS)) + 1)
  })

  it('keeps only the last 8192 bytes in each update', async () => {
    const taskId = await harness.background("seq -w 1 5000 | sed 's/$/abcd/'")
    const updates: TaskOutputUpdate[] = []
    followTaskOutput(harness.registry, taskId, 'session-1', (update) => updates.push(update))
    await waitUntil('the whole output is seen', () => updates.at(-1)?.totalBytes === 45_000)
    expect(Buffer.byteLength(updates.at(-1)!.tail)).toBe(8_192)
  })

  it("refuses another session's task", async () => {
    const taskId = await harness.background('sleep 300', { sessionId: 'owner' })
    expect(() => followTaskOutput(harness.registry, taskId, 'intruder', () => {})).toThrow(
      `No background task found with ID: ${taskId}`,
    )
  })
})
