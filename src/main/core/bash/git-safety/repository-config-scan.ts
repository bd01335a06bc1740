import { readRepositoryConfig } from './git-config-by-git'
import { findProgramKey } from './program-config-keys'
import { readCommonDir } from './read-hooks'

export interface ConfigFinding {
  /** The config name, e.g. `core.fsmonitor`. */
  key: string
  file: string
}

/**
 * The first program-running key in the repository's config as git itself reads it (includes and
 * includeIf conditions evaluated by git), or a problem (git refused the config), or null.
 */
export function findProgramConfig(gitDir: string): ConfigFinding | { problem: string } | null {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  if (!answer.ok) return { problem: answer.problem }
  for (const entry of answer.config.entries) {
    const key = findProgramKey(entry)
    if (key) return { key, file: entry.origin }
  }
  return null
}

/** Whether reading a missing object in this repository fetches it over the network. */
export function isPromisorRepository(gitDir: string): boolean {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  return answer.ok && answer.config.promisor
}
