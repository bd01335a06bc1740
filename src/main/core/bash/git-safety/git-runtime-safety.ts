import { realpathSync, type Stats } from 'node:fs'
import path from 'node:path'
import { readRegularFile } from './bounded-read'
import { MAX_GITDIR_FILE_BYTES, parseGitdirLine } from '../../git-index/gitdir-file'
import { holdsNoDiscoveryEntry } from './marker-free-folders'
import { lstatOncePerCall, realFolderOncePerCall, statOncePerCall } from './per-call-reads'
import { isPromisorRepository } from './repository-config-scan'
import { type RepositoryFacts, readRepositoryFacts } from './repository-facts'
import { repositoryStores } from './object-stores'
import { findRepositoryProgram, type NestedRepositories } from './repository-programs'
import { changedRecently } from '../places/recent-change'

export { MAX_GITDIR_FILE_BYTES }
const MAX_HEAD_BYTES = 4096
const VALID_HEAD = /^(?:ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\s*$/

export type GitRuntimeSafety =
  | {
      safe: true
      reason: string
      /** A partial clone: git show/log -p/diff/cat-file fetch missing objects over the network. */
      promisor?: boolean
      /** The work tree and what git could print from it; absent outside a repository. */
      repository?: RepositoryFacts & {
        workTree: string
        /** The git folders and object stores it reads contents from (object-stores.ts). */
        stores: string[]
      }
    }
  | { safe: false; reason: string }

/**
 * Whether a git command started in `cwd` could be made to run a program the repository chose.
 * Walks up from cwd like git does, checks the `.git` it finds (symlink, gitdir file or directory)
 * and bare-repository lookalikes on the way, then reads the repository's config files for keys
 * that run programs. Reads files only; never runs git. Never throws.
 */
export function checkGitRuntimeSafety(cwd: string): GitRuntimeSafety {
  try {
    // git finds its repository from the physical folder (getcwd), so `-C link` or `cd link` into a
    // symlink leading to an embedded bare repository is judged there; the folder as written, too.
    const written = path.resolve(cwd)
    const physical = realFolderOncePerCall(written)
    const found = walkUp(physical ?? written, physical)
    if (!found.safe || physical === null || physical === written) return found
    const lexical = walkUp(written, physical)
    return lexical.safe ? found : lexical
  } catch (error) {
    return {
      safe: false,
      reason: `the git repository around ${cwd} could not be checked: ${(error as Error).message}`,
    }
  }
}

/** `realCwd`: the real path of cwd, already taken by the caller (null when it does not resolve). */
function walkUp(cwd: string, realCwd: string | null): GitRuntimeSafety {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (holdsNoDiscoveryEntry(dir)) {
      if (path.dirname(dir) === dir)
        return { safe: true, reason: 'no git repository above the working directory' }
      continue
    }
    // Same order as git's discovery: `dir/.git` first, then `dir` itself as a bare repository.
    const dotGit = path.join(dir, '.git')
    const stats = lstatOncePerCall(dotGit)
    if (stats) {
      const gitDir = resolveGitDir(dotGit, stats, realCwd === null ? [cwd] : [cwd, realCwd])
      if (typeof gitDir !== 'string') return gitDir
      return checkRepositoryPrograms(gitDir, dir, cwd)
    }
    const bare = findBareMarker(dir)
    if (bare) return unsafe(`${bare} looks like a bare repository git would use instead of a checked .git`)
    if (path.dirname(dir) === dir)
      return { safe: true, reason: 'no git repository above the working directory' }
  }
}

function unsafe(reason: string): GitRuntimeSafety {
  return { safe: false, reason }
}

function resolveGitDir(dotGit: string, stats: Stats, cwds: string[]): string | GitRuntimeSafety {
  if (stats.isSymbolicLink()) {
    const target = safeRealpath(dotGit)
    if (target === null) return unsafe(`${dotGit} is a symlink that does not resolve`)
    return checkTarget(dotGit, target, cwds)
  }
  if (stats.isFile()) {
    if (stats.size > MAX_GITDIR_FILE_BYTES) return unsafe(`${dotGit} is over ${MAX_GITDIR_FILE_BYTES} bytes`)
    const text = readSmallFile(dotGit, MAX_GITDIR_FILE_BYTES)
    if (text.includes('\0')) return unsafe(`${dotGit} contains a NUL byte`)
    const target = parseGitdirLine(text)
    if (target === null) return unsafe(`${dotGit} is a file without a gitdir: line`)
    const literal = path.resolve(path.dirname(dotGit), target)
    return checkTarget(dotGit, safeRealpath(literal) ?? literal, cwds)
  }
  if (stats.isDirectory()) {
    const problem = findDirectoryProblem(dotGit)
    return problem ? unsafe(problem) : dotGit
  }
  return unsafe(`${dotGit} is neither a directory, a file nor a symlink`)
}

/** A .git that points back inside the working directory, or at a path with no .git segment, is staged. */
function checkTarget(dotGit: string, target: string, cwds: string[]): string | GitRuntimeSafety {
  for (const cwd of cwds) {
    if (isInside(target, cwd)) return unsafe(`${dotGit} points inside the working directory (${target})`)
  }
  if (!target.split(path.sep).includes('.git'))
    return unsafe(`${dotGit} points at ${target}, which has no .git segment`)
  return target
}

function findDirectoryProblem(gitDir: string): string | null {
  const head = path.join(gitDir, 'HEAD')
  const headStats = lstatOncePerCall(head)
  if (!headStats?.isFile()) return `${gitDir} has no valid HEAD`
  if (!isKnownValidHead(head, headStats)) {
    if (!VALID_HEAD.test(readSmallFile(head, MAX_HEAD_BYTES))) return `${gitDir} has no valid HEAD`
    rememberValidHead(head, headStats)
  }
  for (const name of ['objects', 'refs']) {
    if (!statOncePerCall(path.join(gitDir, name))?.isDirectory()) return `${gitDir} has no ${name} directory`
  }
  if (lstatOncePerCall(path.join(gitDir, 'commondir')))
    return `${gitDir} has a commondir file pointing elsewhere`
  return null
}

// HEAD files read and found valid, by identity: git rewrites HEAD by renaming a new file over it,
// so a changed HEAD has a new inode or times. One changed in the same clock tick as we looked
// could keep them, so a HEAD changed in the last RECENT_CHANGE_MS is read every time.
const validHeads = new Map<string, string>()
const MAX_HEADS = 256
const headStamp = (stats: Stats) =>
  `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`

function isKnownValidHead(head: string, stats: Stats): boolean {
  return validHeads.get(head) === headStamp(stats)
}

function rememberValidHead(head: string, stats: Stats): void {
  if (changedRecently(stats)) return
  if (validHeads.size >= MAX_HEADS) validHeads.clear()
  validHeads.set(head, headStamp(stats))
}

// Any entry counts, symlinks included: git accepts a symlinked HEAD or objects/ just as well.
function findBareMarker(dir: string): string | null {
  for (const name of ['HEAD', 'objects', 'refs']) {
    if (lstatOncePerCall(path.join(dir, name))) return path.join(dir, name)
  }
  return null
}

function checkRepositoryPrograms(gitDir: string, workTree: string, cwd: string): GitRuntimeSafety {
  const nested: NestedRepositories = { gitDirs: [], trackedSecrets: [] }
  const problem = findRepositoryProgram(gitDir, workTree, (file) => displayPath(file, cwd), nested)
  if (problem) return unsafe(problem)
  const reason = `${gitDir} runs no program the repository chose`
  // A submodule's git folder may be anywhere its `.git` file says (`gitdir: ~/other/.git`), and
  // `--submodule=diff`, `--recurse-submodules` or the repository's own `diff.submodule` and
  // `submodule.recurse` print its files: each is a place the command reads, like the top one.
  const facts = readRepositoryFacts(gitDir)
  const stores = [
    ...[gitDir, ...nested.gitDirs].flatMap((dir) => repositoryStores(dir)),
    ...facts.namedFiles(workTree),
  ]
  const secretTrackedPaths = [...facts.secretTrackedPaths, ...nested.trackedSecrets]
  // Object.assign, not a spread: keys added after a spread cost a new hidden class each (Node 20).
  const repository = Object.assign({}, facts, { secretTrackedPaths, workTree, stores })
  return isPromisorRepository(gitDir)
    ? { safe: true, reason, promisor: true, repository }
    : { safe: true, reason, repository }
}

function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file)
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative
}

function isInside(target: string, dir: string): boolean {
  const relative = path.relative(dir, target)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

// Throws (caught by checkGitRuntimeSafety) for a FIFO, device, symlink or oversized file.
function readSmallFile(file: string, maxBytes: number): string {
  const data = readRegularFile(file, { maxBytes, followSymlinks: false })
  if (data === null) throw new Error(`${file} disappeared while it was checked`)
  return data.toString('utf8')
}

function safeRealpath(file: string): string | null {
  try {
    // The kernel's realpath: one call, where the JavaScript one lstat's every component.
    return realpathSync.native(file)
  } catch {
    return null
  }
}
