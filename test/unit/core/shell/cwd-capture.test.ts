import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type CoreHarness, startCore, waitFor } from '../workbench/core-harness'

let harness: CoreHarness
afterEach(() => harness?.dispose())

const captureFiles = () => {
  try {
    return readdirSync(join(harness.home, 'exec', 'cwd'))
  } catch {
    return []
  }
}

describe('cwd capture files in a running core', () => {
  it('are gone after a foreground run, a failed run and a background task', async () => {
    harness = await startCore()
    const { core } = harness
    await core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const moved = await core.bash.run(harness.sessionId, { command: 'mkdir -p sub && cd sub' })
    expect(moved.status).toBe('completed')
    expect(core.sessions.get(harness.sessionId).cwd).toBe(join(harness.workspace, 'sub'))
    expect(captureFiles()).toEqual([])
    expect((await core.bash.run(harness.sessionId, { command: 'cd .. && false' })).status).toBe('failed')
    expect(captureFiles()).toEqual([])

    const call = await core.bash.run(harness.sessionId, { command: 'sleep 0.3', run_in_background: true })
    expect(call.status).toBe('backgrounded')
    await waitFor(() => core.tasks.get(call.taskId ?? '')?.status === 'completed', 'the task to end')
    await waitFor(() => captureFiles().length === 0, "the task's capture file to be removed")
  })
})
