import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { prepareTaskOutputPath } from '../../../../src/main/core/tasks/task-output-path'
import { createTaskHarness, fileSize, type TaskHarness, waitUntil } from './fixtures/task-harness'

let harness: TaskHarness

beforeEach(async () => {
  harness = await createTaskHarness()
})

afterEach(async () => {
  await harness.close()
})

describe('task registry', () => {
  it('lists tasks with status, command, start, elapsed, last-output age and bytes', async () => {
    const quiet = await harness.background('sleep 300', { sessionId: 'a', description: 'Wait a while' })
    const chatty = await harness.background('printf 12345; sleep 300', { sessionId: 'b' })
    await waitUntil(
      'the chatty task printed',
      async () => (await fileSize(harness.registry.get(chatty)!.outputPath)) === 5,
    )

    const all = await harness.registry.list()
    expect(all.map((t) => t.taskId)).toEqual([quiet, chatty])
    const [q, c] = all
    expect(q).toMatchObject({
      status: 'running',
      command: 'sleep 300',
      description: 'Wait a while',
      bytes: 0,
      lastOutputAgeMs: null,
    })
    expect(c).toMatchObject({ status: 'running', bytes: 5 })
    expect(c!.lastOutputAgeMs).toEqual(expect.any(Number))
    expect(c!.elapsedMs).toBeGreaterThanOrEqual(0)
    expect(Date.parse(c!.startedAt)).not.toBeNaN()
    expect((await harness.registry.list('b')).map((t) => t.taskId)).toEqual([chatty])
  })

  it('reads the last 8192 bytes for the session that owns the task, and no one else', async () => {
    const taskId = await harness.background("seq -w 1 5000 | sed 's/$/abcd/'", { sessionId: 'owner' })
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status === 'completed')
    const tail = await harness.registry.readTail(taskId, 'owner')
    expect(tail.size).toBe(45_000)
    expect(Buffer.byteLength(tail.text)).toBe(8_192)
    expect(tail.text.endsWith('5000abcd\n')).toBe(true)
    await expect(harness.registry.readTail(taskId, 'intruder')).rejects.toMatchObject({ code: 'not_found' })
    await expect(harness.registry.readTail('missing', 'owner')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('keeps finished tasks and their output listed', async () => {
    const taskId = await harness.background('echo kept')
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status === 'completed')
    expect(await harness.registry.list()).toEqual([
      expect.objectContaining({ taskId, status: 'completed', bytes: 5, exitCode: 0 }),
    ])
    expect((await harness.registry.readTail(taskId, 'session-1')).text).toBe('kept\n')
  })

  it('refuses ids that would escape the output folder', async () => {
    await expect(prepareTaskOutputPath(harness.root, '../escape', 'call')).rejects.toThrow(
      /session id must be/,
    )
    await expect(prepareTaskOutputPath(harness.root, 's1', 'a/b')).rejects.toThrow(/call id must be/)
  })
})
