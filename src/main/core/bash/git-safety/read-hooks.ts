import { statSync } from 'node:fs'
import path from 'node:path'
import { readRegularFile } from './bounded-read'
import { lstatOncePerCall, readOncePerCall } from './per-call-reads'

/** A commondir file is one relative path. */
const MAX_COMMONDIR_BYTES = 4096

/**
 * Hooks git runs during commands we call read-only: `git status` refreshes and rewrites the index,
 * and post-index-change then runs (checked with git 2.39). Hooks of writing commands (pre-commit…)
 * do not matter here, since those commands are never read-only.
 */
export const HOOKS_RUN_BY_READS = ['post-index-change'] as const

/** The first executable read-path hook in the repository (or its common dir), else null. */
export function findReadHook(gitDir: string): string | null {
  for (const dir of [gitDir, readCommonDir(gitDir)]) {
    if (dir === null) continue
    for (const name of HOOKS_RUN_BY_READS) {
      const hook = path.join(dir, 'hooks', name)
      const stats = statSync(hook, { throwIfNoEntry: false })
      if (stats?.isFile() && (stats.mode & 0o111) !== 0) return hook
    }
  }
  return null
}

/** A linked worktree's gitdir names the main repository in `commondir`; null when there is none. */
export function readCommonDir(gitDir: string): string | null {
  return readOncePerCall(`commondir\0${gitDir}`, () => readCommonDirFile(gitDir))
}

function readCommonDirFile(gitDir: string): string | null {
  const file = path.join(gitDir, 'commondir')
  // Only linked worktrees have one; the failed open's exception cost more than this lstat.
  if (lstatOncePerCall(file) === null) return null
  const data = readRegularFile(file, { maxBytes: MAX_COMMONDIR_BYTES, followSymlinks: false })
  if (data === null) return null
  const value = data.toString('utf8').trim()
  return value ? path.resolve(gitDir, value) : null
}
