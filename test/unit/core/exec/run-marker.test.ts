import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { taggedOnceSettled } from '../../../../src/main/core/exec/mid-exec-environ'
import { environAnswer } from '../../../../src/main/core/exec/proc-environ'
import {
  findRunEscapees,
  findTaggedPids,
  findTaggedProcfs,
  RUN_MARKER_ENV_KEY,
  scanTaggedProcfs,
  settled,
} from '../../../../src/main/core/exec/run-marker'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

async function tagged(runId: string, before: Record<string, string> = {}): Promise<number> {
  const child = spawn('sleep', ['30'], {
    // Node passes the variables in this order: `before` comes first in the child's environ.
    env: { ...before, PATH: process.env.PATH ?? '/usr/bin:/bin', [RUN_MARKER_ENV_KEY]: runId },
    stdio: 'ignore',
  })
  children.push(child)
  await once(child, 'spawn')
  return child.pid!
}

describe('finding a run by its tag in /proc', () => {
  it('finds a tagged process above a pid, by the short pid range or by listing /proc', async () => {
    const runId = `test-${process.pid}-${Date.now()}`
    const pid = await tagged(runId)
    await tagged(`${runId}-longer`)
    // The kernel's last pid is known: only the pids after the root are tried.
    expect(findTaggedProcfs(runId, pid - 1)).toEqual([pid])
    // No last pid (or a long range): /proc is listed instead, with the same answer.
    expect(findTaggedProcfs(runId, pid - 1, null)).toEqual([pid])
    expect(findTaggedProcfs(runId, pid - 1, pid + 100_000)).toEqual([pid])
    // Not above the pid: not looked at.
    expect(findTaggedProcfs(runId, pid)).toEqual([])
    expect(findTaggedProcfs(runId)).toEqual([pid])
  })

  it('finds the tag wherever it sits in a long environment, across the 64 KiB read chunks too', async () => {
    const runId = `test-long-${process.pid}-${Date.now()}`
    const chunk = 64 * 1024
    // environ is `FILLER=<x…>\0PATH=…\0SHELLGATE_RUN_ID=…\0`: each length moves the tag (and the
    // NUL that must precede it) a few bytes further over the first chunk's end, and one far past it.
    const path = `PATH=${process.env.PATH ?? '/usr/bin:/bin'}\0`
    const fillers = [-60, -30, -12, -1, 0, 3, chunk].map(
      (shift) => chunk - 'FILLER=\0'.length - path.length + shift,
    )
    const pids: number[] = []
    for (const length of fillers) pids.push(await tagged(runId, { FILLER: 'x'.repeat(length) }))
    const untagged = await tagged(`${runId}-other`, { FILLER: 'x'.repeat(chunk - 20) })
    const found = findTaggedProcfs(runId, Math.min(...pids, untagged) - 1)
    expect(found.sort()).toEqual(pids.sort())
  })

  it('after a root exits, its escapees are found, and the look says it saw every pid since', async () => {
    const runId = `test-root-${process.pid}-${Date.now()}`
    const root = spawn('true')
    await once(root, 'exit')
    const escapee = await tagged(runId)
    const found = await findRunEscapees(runId, root.pid!, 'linux')
    expect(found).toEqual({ pids: [escapee], midExec: [], complete: true, noneForked: false })
  })
})

describe('a tagged process caught inside execve (its environ reads as empty for a moment)', () => {
  // A script that execs itself forever: every look may land inside an execve. One pass over /proc
  // caught it with an empty environ about 1 % of the time; a setsid escapee caught so right after
  // its run's root exited (`exec sleep 30`) was left running, unnamed.
  async function execLooping(runId: string, dir: string): Promise<number> {
    const script = join(dir, 'exec-loop.sh')
    writeFileSync(script, `exec /bin/sh ${script}\n`)
    const child = spawn('/bin/sh', [script], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [RUN_MARKER_ENV_KEY]: runId },
      stdio: 'ignore',
    })
    children.push(child)
    await once(child, 'spawn')
    return child.pid!
  }

  it('is still found on every look: a pass that caught it mid-exec waits for it to show its environment', async () => {
    const runId = `test-exec-${process.pid}-${Date.now()}`
    const pid = await execLooping(runId, tempDir())
    let caughtMidExec = 0
    const missed: number[] = []
    // Until enough passes landed inside an execve to show the window, and at most 20 000 passes.
    for (let look = 0; look < 20_000 && caughtMidExec < 5; look++) {
      const scan = scanTaggedProcfs(runId, pid - 1, pid + 1)
      if (scan.midExec.includes(pid)) caughtMidExec++
      const found = await settled(runId, scan)
      if (!found.includes(pid)) missed.push(look)
    }
    expect(caughtMidExec).toBeGreaterThan(0)
    expect(missed).toEqual([])
    expect(await findTaggedPids(runId, 'linux')).toEqual([pid])
  })

  it('a process with no environment at all is not tagged once its wait ends, and a kernel thread is never waited on', async () => {
    const runId = `test-empty-${process.pid}-${Date.now()}`
    const bare = spawn('env', ['-i', 'sleep', '30'], { stdio: 'ignore' })
    children.push(bare)
    await once(bare, 'spawn')
    await waitFor(() => environAnswer(bare.pid!, 'PATH=/usr/bin') === 'empty')
    // pid 2 is kthreadd: a kernel thread has no environment to read (ESRCH), never a wait.
    expect(environAnswer(2, `${RUN_MARKER_ENV_KEY}=${runId}`)).toBe('lacks')
    expect(await taggedOnceSettled([bare.pid!], `${RUN_MARKER_ENV_KEY}=${runId}`)).toEqual([])
  })
})

async function waitFor(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((wake) => setImmediate(wake))
}

describe('the look after an exit in a pid namespace of its own (issue 24.4: the cheap case)', () => {
  // In a fresh pid namespace nothing else forks, so whether a pid was handed out after the root's
  // is the run's doing alone: the test can see both answers for certain.
  it('no pid since the root: nothing forked; a child: the full look', () => {
    const script = [
      "import { spawn } from 'node:child_process'",
      "import { once } from 'node:events'",
      `import { findRunEscapees } from ${JSON.stringify(resolve('src/main/core/exec/run-marker.ts'))}`,
      "const quiet = spawn('/bin/true')",
      "await once(quiet, 'exit')",
      "const none = await findRunEscapees('r', quiet.pid, 'linux')",
      "const forking = spawn('/bin/sh', ['-c', '/bin/true & wait'])",
      "await once(forking, 'exit')",
      "const some = await findRunEscapees('r', forking.pid, 'linux')",
      'console.log(JSON.stringify({ none, some }))',
    ].join('\n')
    const out = execFileSync(
      '/usr/bin/bwrap',
      [
        '--unshare-pid',
        '--dev-bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--cap-drop',
        'ALL',
        '--die-with-parent',
        process.execPath,
        '--import',
        pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href,
        '--input-type=module',
        '-e',
        script,
      ],
      { encoding: 'utf8', cwd: process.cwd() },
    )
    expect(JSON.parse(out)).toEqual({
      none: { pids: [], midExec: [], complete: true, noneForked: true },
      some: { pids: [], midExec: [], complete: true, noneForked: false },
    })
  })
})
