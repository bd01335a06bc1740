import { type RepositoryConfigAnswer, readRepositoryConfig } from './git-config-by-git'
import { findProgramKey } from './program-config-keys'
import { readCommonDir } from './read-hooks'

export interface ConfigFinding {
  /** The config name, e.g. `core.fsmonitor`. */
  key: string
  file: string
  /** The value as git reads it (null for a bare key); kept for `core.worktree`, judged by where it leads. */
  value?: string | null
}

/** What the repository's config says that matters before a read: a program key, and its work tree. */
export interface ProgramConfig {
  /** The first key that runs a program, or that points git elsewhere (`core.worktree` aside). */
  program: ConfigFinding | null
  /** `core.worktree`: a submodule's repository under `.git/modules` always has one. */
  worktree: ConfigFinding | null
}

/**
 * The program-running keys in the repository's config as git itself reads it (includes and
 * includeIf conditions evaluated by git), or a problem (git refused the config).
 */
export function findProgramConfig(gitDir: string): ProgramConfig | { problem: string } {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  if (!answer.ok) return { problem: answer.problem }
  // The cached answer is the same object until a config file changes, and so is its finding.
  const known = FINDINGS.get(answer)
  if (known !== undefined) return known
  const found: ProgramConfig = { program: null, worktree: null }
  for (const entry of answer.config.entries) {
    const key = findProgramKey(entry)
    if (key === 'core.worktree') found.worktree = { key, file: entry.origin, value: entry.value }
    else if (key) {
      found.program = { key, file: entry.origin }
      break
    }
  }
  FINDINGS.set(answer, found)
  return found
}

const FINDINGS = new WeakMap<RepositoryConfigAnswer, ProgramConfig>()

/** Whether reading a missing object in this repository fetches it over the network. */
export function isPromisorRepository(gitDir: string): boolean {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  return answer.ok && answer.config.promisor
}
