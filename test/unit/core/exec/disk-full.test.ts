import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDirsRemovedAfterEach } from './temp-dir'

const tempDir = tempDirsRemovedAfterEach()
const FIXTURE = fileURLToPath(new URL('../../../fixtures/exec/disk-full-run.ts', import.meta.url))
const TMPFS_BYTES = 64 * 1024

interface DiskFields {
  status: string
  exitCode: number | null
  totalBytes: number
  truncated: boolean
  diskFull: { path: string; freeBytes: number; message: string } | null
}

/**
 * Runs the fixture with `dir` on a real 64 KiB tmpfs: bubblewrap mounts it in a mount namespace of
 * its own, so the full filesystem is real (writes fail with ENOSPC, statfs reports it nearly full)
 * and nothing outside the child sees it.
 */
function runOnFullDisk(mode: 'pipe' | 'file'): Promise<DiskFields> {
  const dir = tempDir()
  const child = spawn(
    '/usr/bin/bwrap',
    [
      '--dev-bind',
      '/',
      '/',
      '--size',
      String(TMPFS_BYTES),
      '--tmpfs',
      dir,
      '--die-with-parent',
      '--',
      process.execPath,
      '--import',
      'tsx',
      FIXTURE,
      dir,
      mode,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as DiskFields)
      else reject(new Error(`fixture exited ${code}: ${stderr}`))
    })
  })
}

describe('disk full is reported whenever a write failed (issue 15.4), on a real full filesystem', () => {
  it("pipe mode: Shellgate's own write of the overflow file fails with ENOSPC, and the result says so", async () => {
    const result = await runOnFullDisk('pipe')
    // The command itself succeeded: only our copy of its output was cut.
    expect(result).toMatchObject({ status: 'completed', exitCode: 0, totalBytes: 200_000, truncated: true })
    expect(result.diskFull?.message).toMatch(
      /^Writing the output to .* failed \(ENOSPC: no space left on device, write\); the output is incomplete because the disk is full\.$/,
    )
  }, 60_000)

  it('file mode: output that stopped early on a nearly full filesystem is reported, not only empty output', async () => {
    const result = await runOnFullDisk('file')
    // head could not write the rest: it failed, having written what fitted.
    expect(result.exitCode).toBe(1)
    expect(result.totalBytes).toBeGreaterThan(0)
    expect(result.totalBytes).toBeLessThan(200_000)
    expect(result.diskFull?.message).toMatch(
      /^The output may have stopped early: the filesystem holding .*out\.log is nearly full/,
    )
    expect(result.diskFull?.freeBytes).toBeLessThan(TMPFS_BYTES)
  }, 60_000)
})
