import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import type { ExecutionCommand, ProgressSample, ResourceSample } from '../../../../src/main/core/exec/types'
import { tempDirsRemovedAfterEach } from './temp-dir'

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/exec')
const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
const tempDir = tempDirsRemovedAfterEach()
const port = createExecutionPort()

describe('pipe mode', () => {
  it('keeps the inline budget in memory and persists each stream in full to its own 0600 file', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: {
        mode: 'argv',
        file: 'sh',
        args: ['-c', 'head -c 5000 /dev/zero | tr "\\0" o; echo err >&2'],
      },
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'pipe', inlineLimitBytes: 1024, persistDir: dir },
    })
    expect(result.stdout).toBe('o'.repeat(1024))
    expect(result.truncated).toBe(false)
    expect(result.outputPath).toBe(join(dir, `${result.runId}-stdout.log`))
    expect(readFileSync(result.outputPath!, 'utf8')).toBe('o'.repeat(5000))
    expect(statSync(result.outputPath!).mode & 0o777).toBe(0o600)
    expect(readFileSync(result.stderrPath!, 'utf8')).toBe('err\n')
  })

  it('truncates when the persisted cap is spent too', async () => {
    const dir = tempDir()
    const result = await port.execute({
      command: { mode: 'argv', file: 'head', args: ['-c', '5000', '/dev/zero'] },
      cwd: dir,
      env: PATH_ONLY,
      output: { mode: 'pipe', inlineLimitBytes: 1024, persistDir: dir, persistLimitBytes: 2000 },
    })
    expect(result.truncated).toBe(true)
    expect(statSync(result.outputPath!).size).toBe(2000)
    expect(result.binary).toBe(true)
  })

  it('progress from the collector tail', async () => {
    const samples: ProgressSample[] = []
    await port.execute(
      {
        command: { mode: 'argv', file: 'sh', args: [join(FIXTURES, 'ticker.sh'), '26'] },
        cwd: tempDir(),
        env: PATH_ONLY,
      },
      { onProgress: (sample) => samples.push(sample) },
    )
    expect(samples.length).toBeGreaterThanOrEqual(1)
    expect(samples[0]!.preview5.split('\n')).toHaveLength(5)
    expect(samples[0]!.preview5).toMatch(/line \d+$/)
  })

  it('shell mode runs the given shell with -c (bash, zsh, sh)', async () => {
    for (const [shell, probe, expected] of [
      ['/bin/bash', 'echo "$BASH_VERSION" | cut -c1', /^\d$/],
      ['/usr/bin/zsh', 'echo "$ZSH_VERSION" | cut -c1', /^\d$/],
      ['/bin/sh', 'echo "$0"', /^\/bin\/sh$/],
    ] as const) {
      const result = await port.execute({
        command: { mode: 'shell', command: probe, shell },
        cwd: tempDir(),
        env: PATH_ONLY,
      })
      expect(result.status, shell).toBe('completed')
      expect(result.stdout.trim(), shell).toMatch(expected)
    }
  })

  it('the run id reaches the child env and onSpawn', async () => {
    let spawnedRunId = ''
    const result = await port.execute(
      {
        command: { mode: 'argv', file: 'sh', args: ['-c', 'printf %s "$SHELLGATE_RUN_ID"'] },
        cwd: tempDir(),
        env: PATH_ONLY,
      },
      { onSpawn: (info) => (spawnedRunId = info.runId) },
    )
    expect(result.stdout).toBe(result.runId)
    expect(spawnedRunId).toBe(result.runId)
  })

  it('resource samples come for posix-bash commands with a host callback, never for others', async () => {
    const sampling = createExecutionPort({ resourceSampleIntervalMs: 100 })
    const run = async (command: ExecutionCommand) => {
      const samples: ResourceSample[] = []
      await sampling.execute(
        { command, cwd: tempDir(), env: PATH_ONLY },
        { onResourceSample: (sample) => samples.push(sample) },
      )
      return samples
    }
    const bash = await run({ mode: 'shell', command: 'sleep 0.6', shellProfile: 'posix-bash' })
    expect(bash.length).toBeGreaterThanOrEqual(1)
    expect(bash[0]!.rssBytes).toBeGreaterThan(0)
    expect(await run({ mode: 'shell', command: 'sleep 0.6' })).toEqual([])
    expect(await run({ mode: 'argv', file: 'sleep', args: ['0.6'] })).toEqual([])
  })
})
