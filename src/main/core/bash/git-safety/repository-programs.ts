import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import { readRegularFile } from './bounded-read'
import { MAX_GITDIR_FILE_BYTES, parseGitdirLine } from '../../git-index/gitdir-file'
import { readIndexFacts, readIndexGitlinks } from './index-gitlinks'
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
  /** The work tree of the repository the command runs in: its submodules' trees are inside it. */
  topWorkTree: string
  /** Each nested repository's work tree, where one is known: the gitlink's path, or core.worktree. */
  trees: Map<string, string>
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
  /** Filled, when given, with what the nested repositories add to what git reads. */
  found?: NestedRepositories,
): string | null {
  const visit: Visit = { display, seen: new Set<string>(), topWorkTree: workTree, trees: new Map() }
  const problem = visitRepository(gitDir, workTree, 0, visit)
  if (found && problem === null) {
    for (const dir of visit.seen) if (dir !== gitDir) found.gitDirs.push(dir)
    // `--submodule=diff` and `--recurse-submodules` print a submodule's tracked files too.
    for (const [dir, tree] of visit.trees) {
      const index = readIndexFacts(path.join(dir, 'index'))
      if ('problem' in index) return index.problem
      for (const tracked of index.secretPaths)
        found.trackedSecrets.push(path.relative(workTree, path.join(tree, tracked)))
    }
  }
  return problem
}

/** The submodules' git folders, and their tracked secret-named files (relative to the top work tree). */
export interface NestedRepositories {
  gitDirs: string[]
  trackedSecrets: string[]
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
  if ('problem' in found) return found.problem
  if (found.program)
    return `git config ${redactedConfigName(found.program.key)} in ${visit.display(found.program.file)} runs a program`
  if (found.worktree) {
    // Run inside a submodule, its own core.worktree is the very work tree the command runs in.
    const tree = tiedWorkTree(gitDir, found.worktree.value ?? null, visit.topWorkTree, depth === 0)
    if (tree === null)
      return `git config core.worktree in ${visit.display(found.worktree.file)} points git at files outside this repository`
    if (depth > 0) visit.trees.set(gitDir, tree)
  } else if (depth > 0 && workTree !== null) visit.trees.set(gitDir, workTree)
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

/**
 * `core.worktree` is how `git submodule add` ties `.git/modules/<name>` to `<name>/` in the
 * superproject, so a repository with submodules has one in each. It is accepted only as that tie:
 * resolved as git resolves it (from the git folder's real path, so a symlinked module folder
 * cannot move a `..`), it must be an existing folder inside the work tree the command runs in,
 * outside every `.git`, whose own `.git` file leads back to this very git folder. Anything else
 * (a planted `core.worktree = ~`, the superproject's `.git`, a folder of secrets) is refused: git
 * would diff and print that folder as the submodule's files. Returns the tied work tree, or null.
 */
function tiedWorkTree(
  gitDir: string,
  value: string | null,
  topWorkTree: string,
  isTop = false,
): string | null {
  if (value === null || value === '') return null
  const realGitDir = realOrNull(gitDir)
  const top = realOrNull(topWorkTree)
  if (realGitDir === null || top === null) return null
  const target = realOrNull(path.resolve(realGitDir, value))
  if (target === null || !(isWithin(target, top) || (isTop && target === top))) return null
  if (path.relative(top, target).split(path.sep).includes('.git')) return null
  const back = resolveNestedGitDir(target)
  return back !== null && realOrNull(back) === realGitDir ? target : null
}

function isWithin(target: string, dir: string): boolean {
  const relative = path.relative(dir, target)
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
}

function realOrNull(file: string): string | null {
  try {
    return realpathSync.native(file)
  } catch {
    return null
  }
}
