import { describe, expect, it } from 'vitest'
import { BoundedCollector } from '../../../../src/main/core/exec/bounded-collector'
import { diagnoseDiskFull } from '../../../../src/main/core/exec/disk-space'
import { OutputTail, previewsOf } from '../../../../src/main/core/exec/output-tail'
import { errorMessageOf, formatDuration, statusOf } from '../../../../src/main/core/exec/result-status'
import { completeUtf8Length, decodeUtf8Cut, looksBinary } from '../../../../src/main/core/exec/utf8'
import type { ChildOutcome } from '../../../../src/main/core/exec/child-run-types'

describe('utf8 cuts', () => {
  it.each([
    ['ascii', 'abc', 3, 'abc'],
    ['2-byte cut', 'é', 1, ''],
    ['3-byte cut after 2', '中', 2, ''],
    ['4-byte cut after 3', '😀', 3, ''],
    ['complete 4-byte', 'a😀', 5, 'a😀'],
    ['cut in the second char', '中文', 4, '中'],
  ])('%s', (_name, text, keep, expected) => {
    const bytes = Buffer.from(text).subarray(0, keep)
    expect(decodeUtf8Cut(bytes)).toBe(expected)
    expect(completeUtf8Length(bytes)).toBe(Buffer.byteLength(expected))
  })

  it('binary when a NUL is in the first 4 KiB only', () => {
    expect(looksBinary(Buffer.from('a\0b'))).toBe(true)
    expect(looksBinary(Buffer.concat([Buffer.alloc(4096, 'a'), Buffer.from([0])]))).toBe(false)
  })
})

describe('BoundedCollector', () => {
  it('never holds more than the budget, whatever the chunk sizes', () => {
    const collector = new BoundedCollector({ inlineLimitBytes: 100_000 })
    for (let index = 0; index < 50; index++) {
      collector.push(index % 2 ? 'stderr' : 'stdout', Buffer.alloc(65_536, 1))
    }
    expect(collector.bytes('stdout').length + collector.bytes('stderr').length).toBe(100_000)
    expect(collector.totalBytes).toBe(50 * 65_536)
    expect(collector.truncated).toBe(true)
  })

  it('a partial chunk is copied, so the dropped part is not retained', () => {
    const collector = new BoundedCollector({ inlineLimitBytes: 10 })
    const chunk = Buffer.alloc(65_536, 2)
    expect(collector.push('stdout', chunk)).toBe(false)
    expect(collector.bytes('stdout').buffer).not.toBe(chunk.buffer)
    expect(collector.bytes('stdout').length).toBe(10)
  })
})

describe('previews', () => {
  it('come from the last 4 KiB and start at a character boundary', () => {
    const tail = new OutputTail()
    const lines = Array.from({ length: 2000 }, (_, index) => `行 ${index}`)
    for (const line of lines) tail.push(Buffer.from(`${line}\n`))
    const bytes = tail.bytes()
    expect(bytes.length).toBe(4096)
    const { preview5, preview100 } = previewsOf(bytes)
    expect(preview5).toBe(lines.slice(-5).join('\n'))
    expect(preview100).toBe(lines.slice(-100).join('\n'))
    expect(preview100).not.toContain('\uFFFD')
  })
})

describe('status and messages', () => {
  const base: ChildOutcome = {
    pid: 1,
    spawnError: null,
    exitCode: 0,
    exitSignal: null,
    timedOut: false,
    cancelled: false,
    outputLimitReached: false,
    timings: { spawnMs: 0, firstByteMs: null, runMs: 0, terminationWaitMs: null, totalMs: 0 },
    termination: null,
    lingering: null,
  }

  it('follows spawn_error > timed_out > cancelled > output limit > exit code', () => {
    const all = {
      ...base,
      spawnError: { code: 'ENOENT', message: 'x' },
      timedOut: true,
      cancelled: true,
      outputLimitReached: true,
    }
    expect(statusOf(all)).toBe('spawn_error')
    expect(statusOf({ ...all, spawnError: null })).toBe('timed_out')
    expect(statusOf({ ...all, spawnError: null, timedOut: false })).toBe('cancelled')
    expect(statusOf({ ...base, outputLimitReached: true })).toBe('failed')
    expect(statusOf({ ...base, exitCode: 2 })).toBe('failed')
    expect(statusOf(base)).toBe('completed')
  })

  it.each([
    [120_000, '2m'],
    [90_000, '1m 30s'],
    [45_000, '45s'],
    [1_500, '1.5s'],
    [250, '250ms'],
    [3_600_000, '1h'],
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
    expect(
      errorMessageOf({ ...base, timedOut: true }, { file: 'x', timeoutMs: ms, outputLimitBytes: 0 }),
    ).toBe(`Command timed out after ${text}`)
  })
})

describe('disk-full diagnosis', () => {
  const roomy = { bavail: 1_000_000, bsize: 4096, ffree: 1_000_000, files: 2_000_000 }
  const run = { totalBytes: 0, exitCode: 1 }

  it('blames a full disk for a failed run with a non-zero, non-137 exit on a nearly full filesystem', () => {
    const full = () => ({ ...roomy, bavail: 1 })
    expect(diagnoseDiskFull('/x', run, full)?.message).toMatch(/output is empty .* disk is full/)
    // Output that stopped early is reported too (issue 15.4), not only an empty one.
    expect(diagnoseDiskFull('/x', { ...run, totalBytes: 1 }, full)?.message).toMatch(
      /may have stopped early: the filesystem holding \/x is nearly full \(4096 bytes free\)/,
    )
    expect(diagnoseDiskFull('/x', { ...run, totalBytes: 1 }, () => roomy)).toBeNull()
    expect(diagnoseDiskFull('/x', { ...run, exitCode: 0 }, full)).toBeNull()
    expect(diagnoseDiskFull('/x', { ...run, exitCode: 137 }, full)).toBeNull()
    expect(diagnoseDiskFull('/x', run, () => roomy)).toBeNull()
  })

  it("reports Shellgate's own failed write (ENOSPC) whatever the exit code and free space say", () => {
    const written = { totalBytes: 5_000, exitCode: 0, writeError: 'ENOSPC: no space left on device, write' }
    expect(diagnoseDiskFull('/x', written, () => roomy)?.message).toBe(
      'Writing the output to /x failed (ENOSPC: no space left on device, write); the output is incomplete because the disk is full.',
    )
    expect(
      diagnoseDiskFull('/x', { ...written, writeError: 'EACCES: permission denied' }, () => roomy),
    ).toBeNull()
  })

  it('counts inodes, except on filesystems without an inode limit', () => {
    expect(diagnoseDiskFull('/x', run, () => ({ ...roomy, ffree: 999 }))?.freeInodes).toBe(999)
    expect(diagnoseDiskFull('/x', run, () => ({ ...roomy, ffree: 0, files: 0 }))).toBeNull()
  })

  it('reads the real filesystem when not given one', () => {
    // The sandbox's /tmp has room: a real statfs call must not report a full disk.
    expect(diagnoseDiskFull('/tmp', run)).toBeNull()
  })
})
