import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TaskError } from '../../../../src/main/core/tasks/task-error'
import { readTaskOutput } from '../../../../src/main/core/tasks/task-output'
import {
  RUNNING_HEAD_BYTES,
  resolveTaskMaxOutputLength,
} from '../../../../src/main/core/tasks/task-output-projection'
import { createTaskHarness, fileSize, type TaskHarness, waitUntil } from './fixtures/task-harness'

let harness: TaskHarness

beforeEach(async () => {
  harness = await createTaskHarness()
})

afterEach(async () => {
  await harness.close()
})

describe('TaskOutput', () => {
  it('answers not_ready without blocking, with the output so far, and does not mark notified', async () => {
    const taskId = await harness.background('echo first; sleep 300')
    await waitUntil(
      'the first line is written',
      async () => (await fileSize(harness.registry.get(taskId)!.outputPath)) > 0,
    )
    const result = await readTaskOutput(harness.registry, { task_id: taskId, block: false })
    expect(result).toMatchObject({
      retrieval_status: 'not_ready',
      task: { status: 'running', output: 'first\n' },
    })
    expect(harness.registry.get(taskId)?.notified).toBe(false)
  })

  it('answers timeout when the task outlives the wait', async () => {
    const taskId = await harness.background('sleep 300')
    const result = await readTaskOutput(harness.registry, { task_id: taskId, timeout: 300 })
    expect(result.retrieval_status).toBe('timeout')
    expect(result.task.status).toBe('running')
  })

  it('blocks until the task ends, returns its exit and output, and only then marks it notified', async () => {
    const taskId = await harness.background('sleep 0.4; echo finished; exit 2')
    expect(harness.registry.get(taskId)?.notified).toBe(false)
    const result = await readTaskOutput(harness.registry, { task_id: taskId })
    expect(result).toEqual({
      retrieval_status: 'success',
      task: {
        task_id: taskId,
        status: 'failed',
        command: 'sleep 0.4; echo finished; exit 2',
        exit_code: 2,
        output: 'finished\n',
        output_path: harness.registry.get(taskId)!.outputPath,
        truncated: false,
        tty: false,
        next_since: 9,
      },
    })
    expect(harness.registry.get(taskId)?.notified).toBe(true)
  })

  it('shows the first 30000 bytes while running', async () => {
    // 72000 bytes of numbered lines (9 bytes each), then a long sleep.
    const taskId = await harness.background("seq -w 1 8000 | sed 's/$/abcd/'; sleep 300")
    await waitUntil(
      'all lines are written',
      async () => (await fileSize(harness.registry.get(taskId)!.outputPath)) >= 72_000,
    )
    const result = await readTaskOutput(harness.registry, { task_id: taskId, block: false })
    expect(Buffer.byteLength(result.task.output)).toBe(RUNNING_HEAD_BYTES)
    expect(result.task.output.startsWith('0001abcd\n0002abcd\n')).toBe(true)
    expect(result.task.truncated).toBe(true)
  })

  it('keeps the tail of a finished task within the character limit and names the full file', async () => {
    const taskId = await harness.background("seq -w 1 8000 | sed 's/$/abcd/'")
    const result = await readTaskOutput(harness.registry, { task_id: taskId }, { maxChars: 1_000 })
    const [note, ...rest] = result.task.output.split('\n')
    expect(note).toBe(
      `[Output truncated: showing the last 1000 characters. Full output: ${result.task.output_path}]`,
    )
    expect(rest.join('\n')).toHaveLength(1_000)
    expect(result.task.output.endsWith('7999abcd\n8000abcd\n')).toBe(true)
    expect(result.task.truncated).toBe(true)
  })

  it('does not mark notified when the read is aborted', async () => {
    const taskId = await harness.background('sleep 0.5')
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    await expect(
      readTaskOutput(harness.registry, { task_id: taskId }, { signal: controller.signal }),
    ).rejects.toThrow()
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status !== 'running')
    expect(harness.registry.get(taskId)?.notified).toBe(false)
  })

  it.each([
    [{ timeout: 600_001 }, /timeout must be an integer from 0 to 600000 ms/],
    [{ timeout: -1 }, /timeout must be/],
    [{ timeout: 1.5 }, /timeout must be/],
  ])('refuses %j', async (input, message) => {
    const taskId = await harness.background('sleep 300')
    const refused = await readTaskOutput(harness.registry, { task_id: taskId, ...input }).catch(
      (e: unknown) => e,
    )
    expect(refused).toBeInstanceOf(TaskError)
    expect((refused as TaskError).code).toBe('invalid_input')
    expect((refused as Error).message).toMatch(message)
  })

  it("reports another session's task as not found", async () => {
    const taskId = await harness.background('sleep 300', { sessionId: 'owner' })
    await expect(
      readTaskOutput(harness.registry, { task_id: taskId }, { sessionId: 'other' }),
    ).rejects.toThrow(`No background task found with ID: ${taskId}`)
  })
})

describe('TASK_MAX_OUTPUT_LENGTH', () => {
  it.each([
    [undefined, 32_000],
    ['50000', 50_000],
    ['999999', 160_000],
    ['0', 32_000],
    ['lots', 32_000],
  ])('%j gives %d characters', (value, chars) => {
    expect(resolveTaskMaxOutputLength({ TASK_MAX_OUTPUT_LENGTH: value })).toBe(chars)
  })
})
