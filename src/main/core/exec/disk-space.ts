import { type StatsFs, statfsSync } from 'node:fs'
import type { DiskFullDiagnosis } from './types'

/** seed 000: under 10 MB free or 1000 free inodes, empty output is blamed on a full disk. */
export const DISK_FULL_FREE_BYTES = 10 * 1000 * 1000
export const DISK_FULL_FREE_INODES = 1_000

export type StatFs = (path: string) => Pick<StatsFs, 'bavail' | 'bsize' | 'ffree' | 'files'>

const OUT_OF_SPACE = /^(ENOSPC|EDQUOT)\b/

/**
 * Whether the output was probably lost to a full disk; say so rather than let the model guess at
 * an empty or cut result (issue 15.4: not only when the output is empty).
 * - Shellgate's own write of the output failed with ENOSPC/EDQUOT: always.
 * - The command failed (non-zero, not 137, which is our kill) and the filesystem holding the
 *   output is below the thresholds: its output is empty, or stopped early.
 */
export function diagnoseDiskFull(
  outputPath: string,
  run: { totalBytes: number; exitCode: number | null; writeError?: string | null },
  statfs: StatFs = statfsSync,
): DiskFullDiagnosis | null {
  const writeFailed = run.writeError ? OUT_OF_SPACE.test(run.writeError) : false
  const commandFailed = run.exitCode !== null && run.exitCode !== 0 && run.exitCode !== 137
  if (!writeFailed && !commandFailed) return null
  let stats: ReturnType<StatFs> | null
  try {
    stats = statfs(outputPath)
  } catch {
    stats = null
  }
  const freeBytes = stats ? Number(stats.bavail) * Number(stats.bsize) : -1
  // Some filesystems (btrfs, many network mounts) report 0 total inodes: they have no inode limit.
  const freeInodes = !stats ? -1 : Number(stats.files) > 0 ? Number(stats.ffree) : Number.POSITIVE_INFINITY
  const low = stats !== null && (freeBytes < DISK_FULL_FREE_BYTES || freeInodes < DISK_FULL_FREE_INODES)
  if (!writeFailed && !low) return null
  const shownInodes = Number.isFinite(freeInodes) ? freeInodes : -1
  if (writeFailed) {
    return {
      path: outputPath,
      freeBytes,
      freeInodes: shownInodes,
      message: `Writing the output to ${outputPath} failed (${run.writeError}); the output is incomplete because the disk is full.`,
    }
  }
  const why = freeBytes < DISK_FULL_FREE_BYTES ? `${freeBytes} bytes free` : `${freeInodes} inodes free`
  const message =
    run.totalBytes === 0
      ? `The output is empty and the filesystem holding ${outputPath} is nearly full (${why}); the command's output was probably lost because the disk is full.`
      : `The output may have stopped early: the filesystem holding ${outputPath} is nearly full (${why}), so the rest was probably lost because the disk is full.`
  return {
    path: outputPath,
    freeBytes,
    freeInodes: shownInodes,
    message,
  }
}
