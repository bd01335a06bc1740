import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { executorNotes } from '../../../../src/main/core/exec/executor-notes'
import { type CoreHarness, startCore } from '../workbench/core-harness'
import { isPidGone } from './process-checks'
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

  it('file mode: a setsid escapee that left the group is named, and gone when the result returns', async () => {
    const dir = tempDir()
    // The shell waits until the escapee has left the group, so only the run tag can find it.
    const result = await port.execute({
      command: {
        mode: 'shell',
        command:
          "setsid sh -c 'echo $$ > escapee.pid; exec sleep 30' >/dev/null 2>&1 & while [ ! -s escapee.pid ]; do :; done; echo started",
        shellProfile: 'posix-bash',
      },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    const escapee = Number(readFileSync(join(dir, 'escapee.pid'), 'utf8'))
    expect(result).toMatchObject({ status: 'completed', exitCode: 0 })
    expect(result.lingering).toEqual({ pids: 1, killed: true, heldOutput: false })
    expect(isPidGone(escapee)).toBe(true)
    expect(executorNotes(result)).toEqual(['a process the command started kept running; it was stopped'])
  })

  it('pipe mode: children that let go of the pipes are still found, stopped and counted', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: {
        mode: 'argv',
        file: 'sh',
        args: [
          '-c',
          "sleep 30 >/dev/null 2>&1 & echo $! > child.pid; setsid sh -c 'echo $$ > escapee.pid; exec sleep 31' >/dev/null 2>&1 & while [ ! -s escapee.pid ]; do :; done; echo started",
        ],
      },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    const pids = ['child.pid', 'escapee.pid'].map((name) => Number(readFileSync(join(dir, name), 'utf8')))
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'started\n' })
    expect(result.lingering).toEqual({ pids: 2, killed: true, heldOutput: false })
    expect(pids.filter((pid) => !isPidGone(pid))).toEqual([])
  })

  it('file mode: the result waits for the leftover look even when it is slower than close (a ps call, as on macOS)', async () => {
    const dir = tempDir()
    // platform 'darwin': the look for escapees is an async `ps -E` call, so the child's close event
    // arrives while it runs. (On this Linux host procps refuses the BSD-only -E, an empty answer;
    // the group itself is still found by signal 0.) Close must not settle the run mid-look.
    const result = await createExecutionPort({ platform: 'darwin' }).execute({
      command: {
        mode: 'shell',
        command: 'sleep 30 & echo $! > child.pid; echo started',
        shellProfile: 'posix-bash',
      },
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'))
    try {
      expect(result).toMatchObject({ status: 'completed', exitCode: 0 })
      expect(result.lingering).toMatchObject({ killed: true, heldOutput: false })
      expect(result.lingering?.pids).toBeGreaterThanOrEqual(1)
    } finally {
      try {
        process.kill(child, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
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
