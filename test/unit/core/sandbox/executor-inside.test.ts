import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { findTaggedPids } from '../../../../src/main/core/exec/run-marker'
import type { ExecutionRequest } from '../../../../src/main/core/exec/types'
import { isGone, type TrackedPid, track, waitAllGone } from '../exec/process-checks'
import { FIXTURE_ROOT, sandboxWorlds } from './sandbox-fixture'

/**
 * The executor's termination, budget and file-mode guarantees, with the sandbox on. Inside the PID
 * namespace a process sees other pids, so the host-side truth is the run tag: every process of the
 * run carries SHELLGATE_RUN_ID, and /proc on the host shows them all with their host pids.
 */
// A copy outside /tmp: the checkout itself may live in /tmp (CI clones anywhere), and every sandbox
// mounts a private /tmp, so the repository's own fixture scripts could be invisible inside.
const FIXTURES = mkdtempSync(join(FIXTURE_ROOT, 'shellgate-exec-fixtures-'))
cpSync(resolve(import.meta.dirname, '../../../fixtures/exec'), FIXTURES, { recursive: true })
afterAll(() => rmSync(FIXTURES, { recursive: true, force: true }))
const ENV = { PATH: '/usr/bin:/bin' }
const port = createExecutionPort()
const world = sandboxWorlds()
/** The fixture scripts are outside the workspace: reads are denied by default, so they are a readable folder. */
const WITH_FIXTURES = { settings: { readablePaths: [FIXTURES] } }

/** Starts the run and resolves, with the host pids of its processes, once at least `count` exist. */
function startTracked(request: ExecutionRequest, count: number) {
  let runId = ''
  const result = port.execute(request, { onSpawn: (info) => (runId = info.runId) })
  const tracked = (async (): Promise<TrackedPid[]> => {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      const pids = runId ? await findTaggedPids(runId, 'linux') : []
      if (pids.length >= count) return pids.map(track)
      await new Promise((done) => setTimeout(done, 20))
    }
    throw new Error(`the run never had ${count} tagged processes`)
  })()
  return { result, tracked, runId: () => runId }
}

describe('the executor inside the sandbox', () => {
  for (const profile of ['read-only', 'workspace-write'] as const) {
    it(`${profile}: timeout kills the whole tree, the setsid daemon included`, async () => {
      const w = world()
      const pidFile = '/tmp/pids'
      const run = startTracked(
        {
          command: {
            mode: 'shell',
            command: `sh '${join(FIXTURES, 'tree.sh')}' ${pidFile}`,
            shellProfile: 'posix-bash',
          },
          cwd: w.workspace,
          env: ENV,
          timeoutMs: 3_000,
          sandbox: w.base({ profile }, WITH_FIXTURES),
        },
        // bwrap, its init, bash and tree.sh's six processes
        8,
      )
      const tracked = await run.tracked
      const result = await run.result
      expect(result.status).toBe('timed_out')
      expect(result.stdout).toBe('ready\n')
      expect(tracked.filter((pid) => !isGone(pid))).toEqual([])
      expect(await findTaggedPids(run.runId(), 'linux')).toEqual([])
    })
  }

  it('cancel in file mode settles with 137 and the tree is gone shortly after', async () => {
    const w = world()
    const controller = new AbortController()
    const outputPath = join(w.outside, 'out.log')
    const run = startTracked(
      {
        command: {
          mode: 'shell',
          command: `sh '${join(FIXTURES, 'tree.sh')}' /tmp/pids`,
          shellProfile: 'posix-bash',
        },
        cwd: w.workspace,
        env: ENV,
        signal: controller.signal,
        output: { mode: 'file', outputPath },
        sandbox: w.base({}, WITH_FIXTURES),
      },
      8,
    )
    const tracked = await run.tracked
    controller.abort()
    const result = await run.result
    expect(result).toMatchObject({ status: 'cancelled', exitCode: 137 })
    expect(await waitAllGone(tracked)).toEqual([])
  })

  it('a setsid escapee dies with the run after a normal exit (file mode)', async () => {
    const w = world()
    const outputPath = join(w.outside, 'out.log')
    let runId = ''
    const result = await port.execute(
      {
        command: {
          mode: 'shell',
          command: 'setsid -f sleep 301; sleep 300 & echo started',
          shellProfile: 'posix-bash',
        },
        cwd: w.workspace,
        env: ENV,
        output: { mode: 'file', outputPath },
        sandbox: w.base(),
      },
      { onSpawn: (info) => (runId = info.runId) },
    )
    expect(result.status).toBe('completed')
    expect(readFileSync(outputPath, 'utf8')).toBe('started\n')
    const deadline = Date.now() + 5_000
    let left = await findTaggedPids(runId, 'linux')
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 20))
      left = await findTaggedPids(runId, 'linux')
    }
    expect(left).toEqual([])
  })

  it('a TERM-ignoring child is KILLed after the grace', async () => {
    const w = world()
    const result = await port.execute({
      command: { mode: 'argv', file: 'sh', args: [join(FIXTURES, 'term-ignoring.sh')] },
      cwd: w.workspace,
      env: ENV,
      timeoutMs: 1_000,
      sandbox: w.base({ profile: 'read-only' }, WITH_FIXTURES),
    })
    expect(result.status).toBe('timed_out')
    expect(result.exitCode).toBeNull()
  })

  it('file mode: one 0600 file in write order, opened by the host outside the workspace', async () => {
    const w = world()
    const outputPath = join(w.outside, 'out.log')
    const result = await port.execute({
      command: { mode: 'shell', command: 'echo one; echo two >&2; echo three', shellProfile: 'posix-bash' },
      cwd: w.workspace,
      env: ENV,
      output: { mode: 'file', outputPath },
      sandbox: w.base({ profile: 'read-only' }),
    })
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, totalBytes: 14 })
    expect(readFileSync(outputPath, 'utf8')).toBe('one\ntwo\nthree\n')
    expect(statSync(outputPath).mode & 0o777).toBe(0o600)
  })

  it('the file cap kills the tree', async () => {
    const w = world()
    const result = await port.execute({
      command: { mode: 'shell', command: 'yes 0123456789abcdef', shellProfile: 'posix-bash' },
      cwd: w.workspace,
      env: ENV,
      output: { mode: 'file', outputPath: join(w.outside, 'out.log'), capBytes: 1_000_000 },
      sandbox: w.base(),
    })
    expect(result).toMatchObject({ status: 'failed', outputLimitReached: true, truncated: true })
  })

  it('stdout and stderr share one byte budget; timings are filled', async () => {
    const w = world()
    const result = await port.execute({
      command: { mode: 'argv', file: 'sh', args: ['-c', 'printf abc; sleep 0.05; printf xyz >&2'] },
      cwd: w.workspace,
      env: ENV,
      output: { mode: 'pipe', inlineLimitBytes: 4 },
      sandbox: w.base({ profile: 'read-only' }),
    })
    expect(result.stdout).toBe('abc')
    expect(result.stderr).toBe('x')
    expect(result.truncated).toBe(true)
    expect(result.timings.firstByteMs).not.toBeNull()
    expect(result.timings.runMs).toBeGreaterThan(0)
  })

  it('the child env is exactly the request env plus the run tag (and TMPDIR for the private tmp, PWD from bwrap --chdir)', async () => {
    const w = world()
    const result = await port.execute({
      command: { mode: 'argv', file: '/usr/bin/env', args: [] },
      cwd: w.workspace,
      env: ENV,
      sandbox: w.base({ profile: 'read-only' }),
    })
    const names = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('=')[0])
      .sort()
    expect(names).toEqual(['PATH', 'PWD', 'SHELLGATE_RUN_ID', 'TMPDIR'])
  })
})
