import { describe, expect, it } from 'vitest'
import { runProcess } from '../../../../src/main/core/exec'

const PATH_ONLY = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

describe('runProcess output budget and environment', () => {
  it('stdout and stderr share one budget counted in bytes', async () => {
    // Each stream prints 3 bytes; a budget of 4 must not let both keep 3.
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'printf abc; sleep 0.05; printf xyz >&2'] },
      { timeoutMs: 10_000, maxOutputBytes: 4, env: PATH_ONLY },
    )
    expect(result.stdout).toBe('abc')
    expect(result.stderr).toBe('x')
    expect(result.truncated).toBe(true)
  })

  it('a cut inside a multi-byte character never yields a broken character', async () => {
    // "中文" is 6 bytes; 4 bytes hold "中" and one byte of "文".
    const result = await runProcess(
      { file: 'printf', args: ['中文'] },
      { timeoutMs: 10_000, maxOutputBytes: 4, env: PATH_ONLY },
    )
    expect(result.stdout).toBe('中')
    expect(result.stdout).not.toContain('\uFFFD')
    expect(result.truncated).toBe(true)
  })

  it('without a cut, an incomplete trailing character the child printed is kept (as U+FFFD), not dropped', async () => {
    const result = await runProcess(
      { file: 'printf', args: ['a\\344'] },
      { timeoutMs: 10_000, maxOutputBytes: 1024, env: PATH_ONLY },
    )
    expect(result).toMatchObject({ stdout: 'a\uFFFD', truncated: false })
  })

  it('a budget of 0 keeps nothing but still reports the exit', async () => {
    const result = await runProcess(
      { file: 'sh', args: ['-c', 'echo hi; exit 4'] },
      { timeoutMs: 10_000, maxOutputBytes: 0, env: PATH_ONLY },
    )
    expect(result).toMatchObject({ stdout: '', stderr: '', truncated: true, exitCode: 4, status: 'failed' })
  })

  it('a secret in the parent environment is invisible to the child', async () => {
    process.env.SHELLGATE_TEST_SECRET = 'hidden'
    try {
      const result = await runProcess(
        {
          file: process.execPath,
          args: ['-e', 'process.stdout.write(process.env.SHELLGATE_TEST_SECRET ?? "clean")'],
        },
        { timeoutMs: 10_000, maxOutputBytes: 1024 },
      )
      expect(result.stdout).toBe('clean')
      const env = await runProcess(
        { file: '/usr/bin/env', args: [] },
        { timeoutMs: 10_000, maxOutputBytes: 4096 },
      )
      // Only the run tag the killer uses is added to the explicit (here empty) environment.
      expect(
        env.stdout
          .trim()
          .split('\n')
          .map((line) => line.split('=')[0]),
      ).toEqual(['SHELLGATE_RUN_ID'])
    } finally {
      delete process.env.SHELLGATE_TEST_SECRET
    }
  })

  it('memory stays bounded while a child writes 1 GiB', async () => {
    const budget = 1024 * 1024
    const before = process.memoryUsage()
    let peakArrayBuffers = before.arrayBuffers
    let peakRss = before.rss
    const sampler = setInterval(() => {
      const now = process.memoryUsage()
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers)
      peakRss = Math.max(peakRss, now.rss)
    }, 10)
    const result = await runProcess(
      { file: 'head', args: ['-c', String(1024 ** 3), '/dev/zero'] },
      { timeoutMs: 120_000, maxOutputBytes: budget, env: PATH_ONLY },
    )
    clearInterval(sampler)
    expect(result).toMatchObject({ status: 'completed', truncated: true })
    expect(result.stdout.length).toBe(budget)
    // Holding the whole GiB would add ~1 GiB; the budget plus in-flight 64 KiB chunks is a few MiB.
    expect(peakArrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024)
    expect(peakRss - before.rss).toBeLessThan(256 * 1024 * 1024)
  })
})
