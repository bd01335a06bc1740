import { type Dirent, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { readRegularFile } from './bounded-read'
import { MAX_GITDIR_FILE_BYTES, parseGitdirLine } from './gitdir-file'
import { readIndexGitlinks } from './index-gitlinks'
import { findReadHook, readCommonDir } from './read-hooks'
import { redactedConfigName } from '../../secrets/git-secret-keys'
import { findProgramConfig } from './repository-config-scan'

/** Submodules inside submodules: git recurses, we follow this deep and refuse beyond. */
const MAX_SUBMODULE_DEPTH = 3
const MAX_REPOSITORIES = 128

interface Visit {
  /** Show a path to the user, relative to the working directory when inside it. */
  display: (file: string) => string
  seen: Set<string>
}

/**
 * Why git could run a program this repository chose, or null. Looks at the repository's read-path
 * hooks and config files, then at every submodule git would descend into during `git status`:
 * the repositories under `.git/modules/` and every gitlink recorded in the index.
 */
export function findRepositoryProgram(
  gitDir: string,
  workTree: string,
  display: (file: string) => string,
): string | null {
  return visitRepository(gitDir, workTree, 0, { display, seen: new Set() })
}

function visitRepository(
  gitDir: string,
  workTree: string | null,
  depth: number,
  visit: Visit,
): string | null {
  if (visit.seen.has(gitDir)) return null
  visit.seen.add(gitDir)
  if (visit.seen.size > MAX_REPOSITORIES) return `more than ${MAX_REPOSITORIES} nested repositories to check`
  const hook = findReadHook(gitDir)
  if (hook) return `${visit.display(hook)} is a hook git runs even for git status`
  const found = findProgramConfig(gitDir)
  if (found && 'problem' in found) return found.problem
  if (found?.key === 'core.worktree')
    return `git config core.worktree in ${visit.display(found.file)} points git at files outside this repository`
  if (found)
    return `git config ${redactedConfigName(found.key)} in ${visit.display(found.file)} runs a program`
  // git recurses without a limit: a repository below the last level checked is refused, never
  // passed unread (its fsmonitor ran under `git status` at depth 4).
  const tooDeep = depth >= MAX_SUBMODULE_DEPTH
  const deeper = `submodules nested more than ${MAX_SUBMODULE_DEPTH} deep (in ${visit.display(gitDir)}) are not checked`
  for (const moduleDir of listModuleGitDirs(readCommonDir(gitDir) ?? gitDir)) {
    if (tooDeep && !visit.seen.has(moduleDir)) return deeper
    const problem = visitRepository(moduleDir, null, depth + 1, visit)
    if (problem) return problem
  }
  if (workTree === null) return null
  const gitlinks = readIndexGitlinks(path.join(gitDir, 'index'))
  if ('problem' in gitlinks) return gitlinks.problem
  for (const link of gitlinks) {
    const nested = resolveNestedGitDir(path.join(workTree, link))
    if (nested === null) continue
    if (tooDeep && !visit.seen.has(nested)) return deeper
    const problem = visitRepository(nested, path.join(workTree, link), depth + 1, visit)
    if (problem) return problem
  }
  return null
}

/** Repositories git keeps for submodules: every directory under modules/ holding a HEAD file. */
function listModuleGitDirs(gitDir: string): string[] {
  const found: string[] = []
  const modules = path.join(gitDir, 'modules')
  // Most repositories have no modules/: check before readdir, whose ENOENT exception costs more.
  if (!statSync(modules, { throwIfNoEntry: false })?.isDirectory()) return found
  const pending = [modules]
  while (pending.length > 0 && found.length <= MAX_REPOSITORIES) {
    const dir = pending.pop() as string
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    if (entries.some((entry) => entry.name === 'HEAD' && entry.isFile())) found.push(dir)
    for (const entry of entries) {
      // A module's own objects/refs/logs never hold nested modules; its `modules/` does.
      if (entry.isDirectory() && !['objects', 'refs', 'logs', 'hooks', 'info'].includes(entry.name)) {
        pending.push(path.join(dir, entry.name))
      }
    }
  }
  return found
}

/** The repository a populated submodule uses: its `.git` directory or the target of its gitdir file. */
function resolveNestedGitDir(submodule: string): string | null {
  const dotGit = path.join(submodule, '.git')
  const stats = statSync(dotGit, { throwIfNoEntry: false })
  if (!stats) return null
  if (stats.isDirectory()) return dotGit
  // Thrown, so the caller reports the repository as not checkable rather than skipping it.
  const data = readRegularFile(dotGit, { maxBytes: MAX_GITDIR_FILE_BYTES, followSymlinks: false })
  if (data === null) return null
  const target = parseGitdirLine(data.toString('utf8'))
  return target === null ? null : path.resolve(submodule, target)
}
