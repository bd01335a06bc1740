import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatTaskNotification } from '../../../../src/main/core/tasks/task-notification'
import { createTaskHarness, type TaskHarness, waitUntil } from './fixtures/task-harness'

let harness: TaskHarness

beforeEach(async () => {
  harness = await createTaskHarness()
})

afterEach(async () => {
  await harness.close()
})

const summaryOf = (text: string) => /<summary>(.*)<\/summary>/.exec(text)?.[1]

describe('formatTaskNotification', () => {
  it('reports a finished task with its status, exit and output file', async () => {
    const taskId = await harness.background('exit 4')
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status !== 'running')
    const text = formatTaskNotification(harness.registry.get(taskId)!)
    expect(text.split('\n')).toEqual([
      '<task-notification>',
      `<task-id>${taskId}</task-id>`,
      '<status>failed</status>',
      '<summary>Background command "exit 4" failed with exit code 4.</summary>',
      `<output-file>${harness.registry.get(taskId)!.outputPath}</output-file>`,
      'Read the output file to see what the command printed.',
      '</task-notification>',
    ])
  })

  it('says whether the model or the user stopped it', async () => {
    const byModel = await harness.background('sleep 300')
    const byUser = await harness.background('sleep 301')
    await harness.registry.stop(byModel, 'caller')
    await harness.registry.stop(byUser, 'user')
    expect(summaryOf(formatTaskNotification(harness.registry.get(byModel)!))).toBe(
      'Background command "sleep 300" was stopped by you.',
    )
    expect(summaryOf(formatTaskNotification(harness.registry.get(byUser)!))).toBe(
      'Background command "sleep 301" was stopped by the user.',
    )
  })

  it('shortens a long command to one line', async () => {
    const taskId = await harness.background(`echo ${'x'.repeat(300)}\necho done`)
    await waitUntil('the task ends', () => harness.registry.get(taskId)?.status === 'completed')
    const summary = summaryOf(formatTaskNotification(harness.registry.get(taskId)!))!
    expect(summary).toMatch(/^Background command "echo x+…" completed \(exit code 0\)\.$/)
    expect(summary.length).toBeLessThan(170)
  })
})
