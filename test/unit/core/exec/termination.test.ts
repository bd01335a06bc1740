import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createExecutionPort, killProcessTree, runProcess } from '../../../../src/main/core/exec'
import { signalGroup, signalPid } from '../../../../src/main/core/exec/signal-process'
import { isGone, readPids, waitAllGone } from './process-checks'
import { tempDirsRemovedAfterEach } from './temp-dir'

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/exec')
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const TREE_SIZE = 6
const tempDir = tempDirsRemovedAfterEach()
const port = createExecutionPort()

describe('termination leaves nothing behind', () => {
  for (const profile of ['plain', 'posix-bash'] as const) {
    it(`${profile}: grandchildren, a double-forked child and a setsid daemon are gone after timeout`, async () => {
      const pidFile = join(tempDir(), 'pids')
      const result = await port.execute({
        command:
          profile === 'plain'
            ? { mode: 'argv', file: 'sh', args: [join(FIXTURES, 'tree.sh'), pidFile] }
            : {
                mode: 'shell',
                command: `sh '${join(FIXTURES, 'tree.sh')}' '${pidFile}'`,
                shellProfile: 'posix-bash',
              },
        cwd: tempDir(),
        env: PATH_ONLY,
        timeoutMs: 2_500,
      })
      expect(result.status).toBe('timed_out')
      expect(result.stdout).toBe('ready\n')
      expect(result.errorMessage).toBe('Command timed out after 2.5s')
      const pids = await readPids(pidFile, TREE_SIZE)
      // Pipe mode settles only after the termination finished: everything is already gone.
      expect(pids.filter((pid) => !isGone(pid))).toEqual([])
    })
  }

  it('the same tree is gone after cancel, including the daemon outside the group', async () => {
    const pidFile = join(tempDir(), 'pids')
    const controller = new AbortController()
    const pending = port.execute({
      command: { mode: 'argv', file: 'sh', args: [join(FIXTURES, 'tree.sh'), pidFile] },
      cwd: tempDir(),
      env: PATH_ONLY,
      signal: controller.signal,
    })
    const pids = await readPids(pidFile, TREE_SIZE)
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ status: 'cancelled', exitCode: null })
    expect(pids.filter((pid) => !isGone(pid))).toEqual([])
  })

  it('file mode: the tree is gone shortly after the immediate 137 settlement on cancel', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'pids')
    const controller = new AbortController()
    const pending = port.execute({
      command: {
        mode: 'shell',
        command: `sh '${join(FIXTURES, 'tree.sh')}' '${pidFile}'`,
        shellProfile: 'posix-bash',
      },
      cwd: dir,
      env: PATH_ONLY,
      signal: controller.signal,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    const pids = await readPids(pidFile, TREE_SIZE)
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ status: 'cancelled', exitCode: 137 })
    expect(await waitAllGone(pids)).toEqual([])
  })

  it('a TERM-ignoring child is KILLed after the grace', async () => {
    const pidFile = join(tempDir(), 'pids')
    const controller = new AbortController()
    const pending = runProcess(
      { file: 'sh', args: [join(FIXTURES, 'term-ignoring.sh'), pidFile] },
      { timeoutMs: 0, maxOutputBytes: 1024, env: PATH_ONLY, signal: controller.signal },
    )
    // Cancel only once the trap is set (the pid is written after it).
    const [root] = await readPids(pidFile, 1)
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({
      status: 'cancelled',
      exitCode: null,
      exitSignal: 'SIGKILL',
      stdout: 'ready\n',
    })
    expect(isGone(root!)).toBe(true)
  })

  it('a stopped child still dies of TERM (SIGCONT is sent with it)', async () => {
    const controller = new AbortController()
    let pid = 0
    const pending = port.execute(
      {
        command: { mode: 'argv', file: 'sh', args: [join(FIXTURES, 'stops-itself.sh')] },
        cwd: tempDir(),
        env: PATH_ONLY,
        signal: controller.signal,
      },
      { onSpawn: (info) => (pid = info.pid) },
    )
    // Cancel only once the child is really stopped (state T), or the test would prove nothing.
    while (!isStopped(pid)) await new Promise((resolve) => setTimeout(resolve, 10))
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ status: 'cancelled', exitSignal: 'SIGTERM', stdout: 'ready\n' })
  })

  it('a background child holding the pipe does not hang the call, and is killed', async () => {
    const pidFile = join(tempDir(), 'pids')
    const result = await runProcess(
      { file: 'sh', args: [join(FIXTURES, 'pipe-holder.sh'), pidFile] },
      { timeoutMs: 0, maxOutputBytes: 1024, env: PATH_ONLY },
    )
    // Completion comes from the exit: status and code are the shell's own.
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'done\n', timedOut: false })
    const [holder] = await readPids(pidFile, 1)
    expect(isGone(holder!)).toBe(true)
  })

  it('killProcessTree works on its own, on any detached child', async () => {
    const pidFile = join(tempDir(), 'pids')
    const child = spawn('sh', [join(FIXTURES, 'tree.sh'), pidFile], {
      detached: true,
      stdio: 'ignore',
      env: { ...PATH_ONLY, SHELLGATE_RUN_ID: 'standalone-test-run' },
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const pids = await readPids(pidFile, TREE_SIZE)
    const report = await killProcessTree({ pid: child.pid!, runId: 'standalone-test-run', profile: 'bash' })
    await exited
    expect(report.remaining).toEqual([])
    expect(report.escalated).toBe(false)
    expect(pids.filter((pid) => !isGone(pid))).toEqual([])
  })

  it('refuses to signal pid 1, 0, -1 or a non-integer', () => {
    // SIGCONT is harmless if the guard were broken; the return value says whether it was sent.
    for (const pid of [1, 0, -1, -5, 1.5, Number.NaN]) {
      expect(signalPid(pid, 'SIGCONT')).toBe(false)
      expect(signalGroup(pid, 'SIGCONT')).toBe(false)
    }
    expect(signalPid(process.pid, 'SIGCONT')).toBe(true)
  })

  it('no signal after settlement: aborting a finished run sends nothing', async () => {
    const controller = new AbortController()
    const result = await port.execute({
      command: { mode: 'argv', file: 'sh', args: ['-c', 'exit 0'] },
      cwd: tempDir(),
      env: PATH_ONLY,
      signal: controller.signal,
    })
    const kill = vi.spyOn(process, 'kill')
    try {
      controller.abort()
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(kill).not.toHaveBeenCalled()
    } finally {
      kill.mockRestore()
    }
    expect(result).toMatchObject({ status: 'completed', cancelled: false })
  })
})

function isStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')
  } catch {
    return false
  }
}
