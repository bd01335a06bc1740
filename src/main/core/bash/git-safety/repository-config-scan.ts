import { type RepositoryConfigAnswer, readRepositoryConfig } from './git-config-by-git'
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
  // The cached answer is the same object until a config file changes, and so is its finding.
  const known = FINDINGS.get(answer)
  if (known !== undefined) return known
  let finding: ConfigFinding | null = null
  for (const entry of answer.config.entries) {
    const key = findProgramKey(entry)
    if (key) {
      finding = { key, file: entry.origin }
      break
    }
  }
  FINDINGS.set(answer, finding)
  return finding
}

const FINDINGS = new WeakMap<RepositoryConfigAnswer, ConfigFinding | null>()

/** Whether reading a missing object in this repository fetches it over the network. */
export function isPromisorRepository(gitDir: string): boolean {
  const answer = readRepositoryConfig(gitDir, readCommonDir(gitDir))
  return answer.ok && answer.config.promisor
}
