import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { executorNotes } from '../../../../src/main/core/exec/executor-notes'
import { type CoreHarness, startCore } from '../workbench/core-harness'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const port = createExecutionPort()
let harness: CoreHarness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

describe('the result says when something outlived the command (issue 15.2)', () => {
  it('pipe mode: a background child holding stdout is killed after the drain, and the result says so', async () => {
    const result = await port.execute({
      command: { mode: 'argv', file: 'sh', args: ['-c', 'sleep 30 & echo started'] },
      cwd: tempDir(),
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'started\n' })
    expect(result.lingering).toEqual({ pids: 1, killed: true, heldOutput: true })
    expect(result.termination).toBeNull()
    expect(executorNotes(result)).toEqual(['a background process kept the output open; it was stopped'])
  })

  it('file mode: processes left in the group are counted and stopped before the result returns', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: { mode: 'shell', command: 'sleep 30 & sleep 31 & echo started', shellProfile: 'posix-bash' },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result).toMatchObject({ status: 'completed', exitCode: 0 })
    expect(result.lingering).toEqual({ pids: 2, killed: true, heldOutput: false })
    expect(executorNotes(result)).toEqual(['2 processes the command started kept running; they were stopped'])
  })

  it('a command that leaves nothing behind reports nothing', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: { mode: 'shell', command: 'echo done', shellProfile: 'posix-bash' },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result.lingering).toBeNull()
    expect(executorNotes(result)).toEqual([])
  })

  it('the agent is told in one line', async () => {
    harness = await startCore()
    // Unsandboxed: inside the sandbox the PID namespace ends the straggler with the shell itself.
    await harness.core.settings.updateUser({ permissions: { mode: 'yolo' }, sandbox: { mode: 'off' } })
    const call = await harness.core.bash.run(harness.sessionId, { command: 'sleep 30 & echo started' })
    expect(call.status).toBe('completed')
    expect(call.content).toBe('started\na process the command started kept running; it was stopped')
  })
})
