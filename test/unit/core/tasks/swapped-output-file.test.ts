import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { followTaskOutput } from '../../../../src/main/core/tasks/follow-task-output'
import { readTaskOutput } from '../../../../src/main/core/tasks/task-output'
import { createTaskHarness, type TaskHarness, waitUntil } from './fixtures/task-harness'

// Issue 15.3: a task's output is read by path while it runs and after, so the command can delete
// its file and put a link to another file there. No reader may then show that other file.
const SECRET = 'PRIVATE KEY MATERIAL'
let harness: TaskHarness
let secretPath: string

beforeEach(async () => {
  harness = await createTaskHarness()
  secretPath = join(harness.root, 'id_rsa')
  writeFileSync(secretPath, `${SECRET}\n`)
})

afterEach(async () => {
  await harness.close()
})

/** The task prints, swaps its own output file (found through its stdout) for a link, and says so. */
function swapCommand(link: 'ln -s' | 'ln'): string {
  return `echo before; out=$(readlink /proc/$$/fd/1); rm "$out"; ${link} '${secretPath}' "$out"; touch "$out.swapped"; sleep 300`
}

describe.each([
  ['a symlink', 'ln -s'],
  ['a hard link', 'ln'],
] as const)('a task that swaps its output file for %s', (_name, link) => {
  it('never shows the other file in the UI tail, TaskOutput, the live tail or the size', async () => {
    const taskId = await harness.background(swapCommand(link))
    const outputPath = harness.registry.get(taskId)!.outputPath
    await waitUntil('the output file was swapped', async () => {
      const { existsSync } = await import('node:fs')
      return existsSync(`${outputPath}.swapped`)
    })

    const tail = await harness.registry.readTail(taskId, 'session-1')
    expect(tail.text).not.toContain(SECRET)
    expect(tail.refused).toMatch(/no longer the file the command wrote to|replaced by a symlink/)

    const read = await readTaskOutput(harness.registry, { task_id: taskId, block: false })
    expect(read.task.output).not.toContain(SECRET)
    expect(read.task.output).toContain('output not read')

    // The size is the last known size of the file that was ours, never the secret's.
    const info = await harness.registry.info(taskId)
    expect([0, 'before\n'.length]).toContain(info?.bytes)

    const updates: string[] = []
    const follower = followTaskOutput(harness.registry, taskId, 'session-1', (update) =>
      updates.push(update.tail),
    )
    await harness.registry.stop(taskId, 'user')
    await waitUntil('the task ended', () => harness.registry.get(taskId)?.status === 'stopped')
    follower.stop()
    expect(updates.join('')).not.toContain(SECRET)

    const after = await readTaskOutput(harness.registry, { task_id: taskId })
    expect(after.task.output).not.toContain(SECRET)
  })
})

it('an untouched task output file is still read, running and finished', async () => {
  const taskId = await harness.background('echo first; sleep 300')
  await waitUntil(
    'the first line is shown',
    async () => (await harness.registry.readTail(taskId, 'session-1')).text === 'first\n',
  )
  await harness.registry.stop(taskId, 'user')
  const after = await readTaskOutput(harness.registry, { task_id: taskId })
  expect(after.task.output).toBe('first\n')
})
