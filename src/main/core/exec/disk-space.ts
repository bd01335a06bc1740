import { type StatsFs, statfsSync } from 'node:fs'
import type { DiskFullDiagnosis } from './types'

/** seed 000: under 10 MB free or 1000 free inodes, empty output is blamed on a full disk. */
export const DISK_FULL_FREE_BYTES = 10 * 1000 * 1000
export const DISK_FULL_FREE_INODES = 1_000

export type StatFs = (path: string) => Pick<StatsFs, 'bavail' | 'bsize' | 'ffree' | 'files'>

/**
 * A command that printed nothing and failed (but was not killed: 137) may have lost its output to
 * a full disk; say so rather than let the model guess at an empty result.
 */
export function diagnoseDiskFull(
  outputPath: string,
  run: { totalBytes: number; exitCode: number | null },
  statfs: StatFs = statfsSync,
): DiskFullDiagnosis | null {
  if (run.totalBytes > 0 || run.exitCode === null || run.exitCode === 0 || run.exitCode === 137) return null
  let stats: ReturnType<StatFs>
  try {
    stats = statfs(outputPath)
  } catch {
    return null
  }
  const freeBytes = Number(stats.bavail) * Number(stats.bsize)
  // Some filesystems (btrfs, many network mounts) report 0 total inodes: they have no inode limit.
  const freeInodes = Number(stats.files) > 0 ? Number(stats.ffree) : Number.POSITIVE_INFINITY
  if (freeBytes >= DISK_FULL_FREE_BYTES && freeInodes >= DISK_FULL_FREE_INODES) return null
  const why = freeBytes < DISK_FULL_FREE_BYTES ? `${freeBytes} bytes free` : `${freeInodes} inodes free`
  return {
    path: outputPath,
    freeBytes,
    freeInodes: Number.isFinite(freeInodes) ? freeInodes : -1,
    message: `The output is empty and the filesystem holding ${outputPath} is nearly full (${why}); the command's output was probably lost because the disk is full.`,
  }
}
