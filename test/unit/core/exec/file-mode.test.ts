import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ProgressSample } from '../../../../src/main/core/exec/types'
import { isGone, readPids, track, waitAllGone } from './process-checks'
import { tempDirsRemovedAfterEach } from './temp-dir'

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/exec')
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const tempDir = tempDirsRemovedAfterEach()
const port = createExecutionPort()

function bash(command: string) {
  return { mode: 'shell' as const, command, shellProfile: 'posix-bash' as const }
}

describe('Bash file mode', () => {
  it('ends what a command left running once it exits: a & child and a setsid daemon', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'pids')
    const result = await port.execute({
      command: bash(
        `sleep 300 & echo $! >> ${pidFile}; setsid sleep 301 & echo $! >> ${pidFile}; echo started`,
      ),
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result.status).toBe('completed')
    const pids = await readPids(pidFile, 2)
    expect(await waitAllGone(pids)).toEqual([])
  })

  it('stdout and stderr go to one 0600 file in write order', async () => {
    const dir = tempDir()
    const outputPath = join(dir, 'out.log')
    const result = await port.execute({
      command: bash('echo one; echo two >&2; echo three'),
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath },
    })
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, outputPath, stdout: '', totalBytes: 14 })
    expect(readFileSync(outputPath, 'utf8')).toBe('one\ntwo\nthree\n')
    expect(statSync(outputPath).mode & 0o777).toBe(0o600)
  })

  it('an existing file is truncated and tightened to 0600', async () => {
    const dir = tempDir()
    const outputPath = join(dir, 'out.log')
    writeFileSync(outputPath, 'old content that is longer')
    chmodSync(outputPath, 0o644)
    await port.execute({
      command: bash('echo new'),
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath },
    })
    expect(readFileSync(outputPath, 'utf8')).toBe('new\n')
    expect(statSync(outputPath).mode & 0o777).toBe(0o600)
  })

  it('a symlink planted at the output path is not followed, and nothing runs', async () => {
    const dir = tempDir()
    const target = join(dir, 'precious')
    writeFileSync(target, 'keep me')
    const outputPath = join(dir, 'out.log')
    symlinkSync(target, outputPath)
    const marker = join(dir, 'ran')
    const result = await port.execute({
      command: bash(`touch '${marker}'; echo overwritten`),
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath },
    })
    expect(result.status).toBe('spawn_error')
    expect(result.spawnError?.code).toBe('ELOOP')
    expect(result.errorMessage).toMatch(/symlink/)
    expect(readFileSync(target, 'utf8')).toBe('keep me')
    expect(existsSync(marker)).toBe(false)
  })

  it('a FIFO planted at the output path is refused, and nothing runs', async () => {
    const dir = tempDir()
    const outputPath = join(dir, 'out.log')
    execFileSync('mkfifo', [outputPath])
    const marker = join(dir, 'ran')
    const result = await port.execute({
      command: bash(`touch '${marker}'`),
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath },
    })
    expect(result.status).toBe('spawn_error')
    expect(result.errorMessage).toMatch(/not a regular file/)
    expect(existsSync(marker)).toBe(false)
  })

  it('timeout settles right after the kill request with 143', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: bash('echo started; sleep 30'),
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 300,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result).toMatchObject({
      status: 'timed_out',
      exitCode: 143,
      timedOut: true,
      errorMessage: 'Command timed out after 300ms',
    })
  })

  it('a timeout kills the whole tree, checked by pid: children, a grandchild, a double fork and a setsid daemon', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'pids')
    const result = await port.execute({
      command: bash(`sh '${join(FIXTURES, 'tree.sh')}' '${pidFile}'`),
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 4_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result).toMatchObject({ status: 'timed_out', exitCode: 143 })
    expect(readFileSync(join(dir, 'out.log'), 'utf8')).toBe('ready\n')
    // File mode settles at the kill request; the tree dies in the background, within the grace.
    const pids = await readPids(pidFile, 6)
    expect(await waitAllGone(pids)).toEqual([])
  })

  it('the size cap kills the tree (checked every second)', async () => {
    const dir = tempDir()
    const pidFile = join(dir, 'pids')
    // About 1.3 MB/s, so a 1 MiB cap is crossed between two checks without writing gigabytes.
    const result = await port.execute({
      command: bash(`echo $$ > '${pidFile}'; while :; do head -c 65536 /dev/zero; sleep 0.05; done`),
      cwd: dir,
      env: PATH_ONLY,
      timeoutMs: 30_000,
      output: { mode: 'file', outputPath: join(dir, 'out.log'), capBytes: 1024 * 1024 },
    })
    expect(result).toMatchObject({
      status: 'failed',
      outputLimitReached: true,
      truncated: true,
      timedOut: false,
    })
    expect(result.totalBytes).toBeGreaterThan(1024 * 1024)
    expect(await waitAllGone(await readPids(pidFile, 1))).toEqual([])
  })

  it('a background task: timeoutMs 0, the caller stops waiting, the run goes on, a later abort kills it', async () => {
    const dir = tempDir()
    const outputPath = join(dir, 'out.log')
    const controller = new AbortController()
    let pid = 0
    const running = port.execute(
      {
        command: bash(`'${join(FIXTURES, 'ticker.sh')}' 10000`),
        cwd: dir,
        env: PATH_ONLY,
        timeoutMs: 0,
        signal: controller.signal,
        output: { mode: 'file', outputPath },
      },
      { onSpawn: (info) => (pid = info.pid) },
    )
    // The caller moves on; the command keeps writing.
    const sizeAt = () => (existsSync(outputPath) ? statSync(outputPath).size : 0)
    while (sizeAt() < 30) await new Promise((resolve) => setTimeout(resolve, 50))
    const first = sizeAt()
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(sizeAt()).toBeGreaterThan(first)
    const child = track(pid)
    expect(isGone(child)).toBe(false)

    controller.abort()
    const result = await running
    expect(result).toMatchObject({ status: 'cancelled', exitCode: 137, outputPath })
    expect(await waitAllGone([child])).toEqual([])
  })

  it('progress after 2 s from the file tail, with 5- and 100-line previews', async () => {
    const dir = tempDir()
    const samples: ProgressSample[] = []
    const result = await port.execute(
      {
        command: bash(`'${join(FIXTURES, 'ticker.sh')}' 32`),
        cwd: dir,
        env: PATH_ONLY,
        output: { mode: 'file', outputPath: join(dir, 'out.log') },
      },
      { onProgress: (sample) => samples.push(sample) },
    )
    expect(result.status).toBe('completed')
    expect(samples.length).toBeGreaterThanOrEqual(1)
    const last = samples.at(-1)!
    const short = last.preview5.split('\n')
    expect(short).toHaveLength(5)
    expect(short.every((line) => /^line \d+$/.test(line))).toBe(true)
    expect(last.preview100.endsWith(last.preview5)).toBe(true)
    expect(last.preview100.split('\n').length).toBeGreaterThan(5)
    expect(last.totalBytes).toBeGreaterThan(0)
    expect(last.lastOutputAt).not.toBeNull()
  })

  it('binary output (a NUL in the first 4 KiB) is flagged', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: bash("printf 'a\\000b'"),
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'file', outputPath: join(dir, 'out.log') },
    })
    expect(result).toMatchObject({ binary: true, totalBytes: 3 })
  })
})
