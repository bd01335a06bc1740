import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { leftoversAfterGrace } from '../../../../src/main/core/exec/leftover-grace'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const port = createExecutionPort()

function detachedSleep(seconds: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('sleep', [seconds], { detached: true, stdio: 'ignore' })
    child.once('error', reject)
    child.once('spawn', () => resolve(child.pid!))
    child.unref()
  })
}

describe('a process on its way out is not left behind (bwrap: the monitor exits before its namespace init)', () => {
  it('only what still runs after the grace counts', async () => {
    const ending = await detachedSleep('0.02')
    const staying = await detachedSleep('30')
    try {
      const left = await leftoversAfterGrace(process.pid, { group: false, pids: [ending, staying] }, 'linux')
      expect(left).toEqual({ group: false, pids: [staying] })
    } finally {
      process.kill(staying, 'SIGKILL')
    }
  })

  it('an escapee that ends just after the shell gets no "kept running" note; one that stays is stopped', async () => {
    const dir = tempDir()
    // The escapee outlives the shell by a few ms of its own work: the leftover look sees it
    // running, then it ends. A counted loop, not `sleep`: starting a program can take longer than
    // the grace on a loaded machine, where the counting shell only slows down with everything else.
    const ending = await port.execute({
      command: {
        mode: 'shell',
        command:
          'root=$$; setsid sh -c "while kill -0 $root 2>/dev/null; do :; done; i=0; while [ \\$i -lt 3000 ]; do i=\\$((i+1)); done" & echo started',
        shellProfile: 'posix-bash',
      },
      cwd: dir,
      env: { ...PATH_ONLY },
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'ending.log') },
    })
    expect(ending).toMatchObject({ status: 'completed', exitCode: 0 })
    expect(ending.lingering).toBeNull()

    const staying = await port.execute({
      command: {
        mode: 'shell',
        command: "setsid sh -c 'exec sleep 30' & echo started",
        shellProfile: 'posix-bash',
      },
      cwd: dir,
      env: { ...PATH_ONLY },
      timeoutMs: 20_000,
      output: { mode: 'file', outputPath: join(dir, 'staying.log') },
    })
    expect(staying.lingering).toMatchObject({ pids: 1, killed: true })
  })
})
