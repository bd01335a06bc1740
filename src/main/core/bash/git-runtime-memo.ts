import type { FsLookups } from './places/fs-lookups'
import { checkGitRuntimeSafety, type GitRuntimeSafety } from './git-safety/git-runtime-safety'
import { withCallReads } from './git-safety/per-call-reads'

/**
 * checkGitRuntimeSafety walks up to the root, reads HEAD, the hooks folder, every config file and
 * the index: most of a git line's classify. Within one call each folder is checked once
 * (`git status && git log` in the same folder); between calls the check runs again, since a config
 * file or an include may have appeared since (its own cache keeps what is still valid).
 */
export class GitSafetyPerCall {
  // Made on first use: most lines have no git in them.
  private answers?: Map<string, GitRuntimeSafety>
  private reads?: Map<string, unknown>

  /** `lookups`: the call's file system answers, which the walk up from each folder shares. */
  constructor(private readonly lookups?: FsLookups) {}

  check(folder: string): GitRuntimeSafety {
    this.answers ??= new Map()
    const known = this.answers.get(folder)
    if (known) return known
    this.reads ??= new Map()
    const safety = withCallReads(this.reads, () => checkGitRuntimeSafety(folder), this.lookups)
    this.answers.set(folder, safety)
    return safety
  }
}
