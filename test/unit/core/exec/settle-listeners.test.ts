import { type ChildProcess, spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { SpawnFunction } from '../../../../src/main/core/exec/spawn-function'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

/** A port whose children are real, and kept so the test can look at them after the result. */
function recordingPort() {
  const children: ChildProcess[] = []
  const spawnFile: SpawnFunction = (file, args, options) => {
    const child = spawn(file, args, options)
    children.push(child)
    return child
  }
  return { port: createExecutionPort({ spawnFile }), children }
}

const lifecycleListeners = (child: ChildProcess) =>
  ['spawn', 'exit', 'close'].map((event) => child.listenerCount(event))

// Settle skips removing its listeners once 'close' was emitted (issue 24.4: nothing can follow it).
// Before 'close' they must go: a late 'exit' would rewrite a result still waiting for its kill.
describe('settlement leaves no lifecycle listener on the child', () => {
  it('settled before close (a background child held the pipe past the drain): all removed', async () => {
    const { port, children } = recordingPort()
    const result = await port.execute({
      command: { mode: 'argv', file: 'sh', args: ['-c', 'sleep 30 & echo started'] },
      cwd: '/',
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    expect(result.lingering).toMatchObject({ heldOutput: true, killed: true })
    expect(children).toHaveLength(1)
    expect(lifecycleListeners(children[0]!)).toEqual([0, 0, 0])
  })

  it('the premise of the skip: by the usual settlement (after close), Node has already destroyed both pipes', async () => {
    const { port, children } = recordingPort()
    const result = await port.execute({
      command: { mode: 'argv', file: 'true', args: [] },
      cwd: '/',
      env: PATH_ONLY,
      timeoutMs: 20_000,
    })
    expect(result.status).toBe('completed')
    const child = children[0]!
    expect(child.exitCode).toBe(0)
    expect([child.stdout?.destroyed, child.stderr?.destroyed]).toEqual([true, true])
  })
})
