import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { isInside, kindOf, readText, realOrNull, safeReaddir } from './host-paths'
import type { LayoutEntry } from './layout-types'
import { parseGitdirLine } from '../git-index/gitdir-file'
import { parseGitConfig } from '../secrets/git-config-text'

/**
 * What git reads from a git dir that makes it run a program or read config from somewhere else:
 * read-only under workspace-write (issue 19.2). Everything else in a git dir is what ordinary git
 * work writes (objects/, refs/, logs/, index, HEAD, packed-refs, the *_HEAD files, COMMIT_EDITMSG,
 * rebase-*, sequencer/, lock files, lfs/), and stays writable: git writes `<file>.lock` and renames
 * it over the file, so the git dir itself must stay writable, and each sealed name is a mount
 * point, which rename and unlink cannot replace (EBUSY).
 *   - config, config.worktree: core.fsmonitor, core.hooksPath, aliases, filters, includes;
 *   - hooks/: run by commit, checkout, merge, push;
 *   - info/: attributes choose filter and diff drivers, sparse-checkout what is checked out;
 *   - modules/: each submodule's git dir (sealed the same way inside, see reopened);
 *   - worktrees/: each linked worktree's git dir, whose config.worktree and commondir git reads;
 *   - commondir: where git takes config, hooks and refs from (a planted one was shown to run a
 *     planted core.fsmonitor).
 * Missing ones are created first, empty (folders, and an empty config.worktree), so a command
 * cannot plant them; commondir cannot be (git refuses an empty one), so a new one is caught after
 * the run instead (git-audit.ts).
 */
export const SEALED_DIRS = ['hooks', 'info', 'modules', 'worktrees']
// objects/info/alternates (and its http twin) make git read objects from another repository's
// store: written by a sandboxed command, the person's own git then printed an outside repository.
export const SEALED_FILES = [
  'config',
  'config.worktree',
  'commondir',
  'objects/info/alternates',
  'objects/info/http-alternates',
]
const CREATED_FILES = ['config.worktree', 'objects/info/alternates']

export interface GitSeal {
  protected: LayoutEntry[]
  /**
   * A submodule's config and config.worktree: git submodule update rewrites core.worktree on every
   * run (git 2.39's ensure_core_worktree sets it whenever it is set), so they stay writable, and
   * the audit after the run puts back any change but that one (git-audit.ts).
   */
  restoredAfter: LayoutEntry[]
  /** Existing submodule and worktree git dirs, writable again inside the sealed modules/ and worktrees/. */
  reopened: LayoutEntry[]
  /** Every git dir sealed (for the audit after the run). */
  gitDirs: string[]
}

/**
 * Seals each git dir: the workspace's (and its common dir when it is a linked worktree), every
 * nested repository's found by the scan, and every submodule's and worktree's inside them.
 */
export function sealGitDirs(gitDirs: string[], create = true): GitSeal {
  const seal: GitSeal = { protected: [], restoredAfter: [], reopened: [], gitDirs: [] }
  const seen = new Set<string>()
  const visit = (gitDir: string, why: string, submodule: boolean) => {
    if (seen.has(gitDir) || kindOf(gitDir) !== 'dir') return
    seen.add(gitDir)
    seal.gitDirs.push(gitDir)
    if (create) {
      for (const name of [...SEALED_DIRS, ...CREATED_FILES])
        createEmpty(join(gitDir, name), SEALED_DIRS.includes(name))
    }
    // A symlink cannot be mounted over (bwrap follows it), and inside a writable git dir the link
    // itself could be swapped; such a git dir is read-only as a whole.
    const names = [...SEALED_DIRS, ...SEALED_FILES]
    if (names.some((name) => kindOf(join(gitDir, name)) === 'link')) {
      seal.protected.push({
        path: gitDir,
        kind: 'dir',
        why: `${why}: holds a symlinked hooks, config or info`,
      })
      return
    }
    for (const name of names) {
      const path = join(gitDir, name)
      const kind = kindOf(path)
      if (kind !== 'dir' && kind !== 'file') continue
      if (submodule && kind === 'file' && (name === 'config' || name === 'config.worktree')) {
        seal.restoredAfter.push({
          path,
          kind,
          why: `${why}: ${SEAL_WHY[name]}; git submodule update rewrites its core.worktree, so any other change is undone after the run`,
        })
      } else seal.protected.push({ path, kind, why: `${why}: ${SEAL_WHY[name]}` })
    }
    // objects/ and objects/info/ made mount points of their own (still writable): renamed aside
    // and replaced, they would carry a fresh, unsealed alternates file.
    for (const name of ['objects', join('objects', 'info')]) {
      const path = join(gitDir, name)
      if (kindOf(path) === 'dir')
        seal.reopened.push({
          path,
          kind: 'dir',
          why: 'holds the sealed alternates: it cannot be renamed aside',
        })
    }
    for (const nested of moduleGitDirs(join(gitDir, 'modules'))) {
      seal.reopened.push({
        path: nested,
        kind: 'dir',
        why: 'an existing submodule: git submodule update writes here',
      })
      visit(nested, 'a submodule git dir', true)
    }
    for (const name of safeReaddir(join(gitDir, 'worktrees'))) {
      const worktree = join(gitDir, 'worktrees', name)
      if (kindOf(worktree) !== 'dir') continue
      seal.reopened.push({
        path: worktree,
        kind: 'dir',
        why: 'an existing linked worktree: its HEAD and index',
      })
      // git reads a worktree's config.worktree once extensions.worktreeConfig is on (git
      // sparse-checkout turns it on): a missing one is made, empty, so it cannot be planted.
      if (create) createEmpty(join(worktree, 'config.worktree'), false)
      for (const file of safeReaddir(worktree)) {
        if (!file.startsWith('config') && file !== 'commondir') continue
        const path = join(worktree, file)
        const kind = kindOf(path)
        if (kind === 'dir' || kind === 'file') {
          seal.protected.push({ path, kind, why: `a linked worktree's ${file}: git reads it for config` })
        }
      }
    }
  }
  for (const gitDir of gitDirs) visit(gitDir, 'git', false)
  return seal
}

/**
 * Makes a missing sealed path exist, empty. Where it cannot be made (a read-only file system, a
 * git dir of another owner), the sandboxed command, running as the same person, cannot make it either.
 */
function createEmpty(path: string, folder: boolean): void {
  if (kindOf(path) !== null) return
  try {
    if (folder) mkdirSync(path, { mode: 0o755 })
    else if (kindOf(dirname(path)) === 'dir') closeSync(openSync(path, 'wx', 0o644))
  } catch {
    // See above: nothing to seal, and nothing the command can plant.
  }
}

const SEAL_WHY: Record<string, string> = {
  config: 'config can make git run programs (core.fsmonitor, core.hooksPath, aliases, filters)',
  'config.worktree': 'config can make git run programs',
  commondir: 'it tells git where to read config and hooks from',
  hooks: 'hooks run at commit, checkout, merge and push',
  info: 'attributes pick filter and diff drivers',
  modules: "submodules' git dirs, each with its own config and hooks",
  worktrees: "linked worktrees' git dirs, each with config git reads",
  'objects/info/alternates': "it makes git read objects from another repository's store",
  'objects/info/http-alternates': "it makes git read objects from another repository's store",
}

/** Submodule git dirs under modules/, at any depth (a submodule named `a/b` lives at modules/a/b). */
function moduleGitDirs(modules: string): string[] {
  const found: string[] = []
  const walk = (dir: string, depth: number) => {
    if (depth > 8) return
    for (const name of safeReaddir(dir)) {
      const path = join(dir, name)
      if (kindOf(path) !== 'dir') continue
      if (isGitDir(path)) found.push(path)
      else walk(path, depth + 1)
    }
  }
  walk(modules, 0)
  return found
}

export function isGitDir(path: string): boolean {
  return existsSync(join(path, 'HEAD')) && kindOf(join(path, 'objects')) === 'dir'
}

/**
 * The git dirs a `.git` entry stands for: the folder itself, or where a `.git` file points
 * (`gitdir: …`, a submodule's or linked worktree's), and that dir's common dir when it has one.
 */
export function gitDirsOf(dotGit: string): string[] {
  const kind = kindOf(dotGit)
  if (kind === 'dir') return [dotGit]
  // git follows a `.git` symlink to a folder (a git dir) or to a file (a gitfile).
  const target = kind === 'link' ? realOrNull(dotGit) : kind === 'file' ? dotGit : null
  if (target === null) return []
  if (kindOf(target) === 'dir') return [target]
  if (kindOf(target) !== 'file') return []
  const written = gitfileTarget(target)
  if (written === null) return []
  const gitDir = realOrNull(resolve(dirname(dotGit), written))
  if (!gitDir || kindOf(gitDir) !== 'dir') return []
  const dirs = [gitDir]
  const commonFile = join(gitDir, 'commondir')
  const common = kindOf(commonFile) === 'file' ? readText(commonFile)?.trim() : undefined
  if (common) {
    const real = realOrNull(isAbsolute(common) ? common : resolve(gitDir, common))
    if (real && kindOf(real) === 'dir') dirs.push(real)
  }
  return dirs
}

/** Where a gitfile points, as git reads it (the verdict's reading too, git-index/gitdir-file.ts). */
export function gitfileTarget(file: string): string | null {
  const text = readText(file)
  return text === null ? null : parseGitdirLine(text)
}

/**
 * The git dirs of the workspace that live outside it (a linked worktree's, a submodule's): mounted
 * too, writable under workspace-write. Only when the git dir leads back to this workspace, as the
 * two kinds git makes do: a linked worktree's `gitdir` file names this `.git` file, an absorbed
 * submodule's `core.worktree` names this folder. A `.git` file written by an approved command
 * could otherwise point at any folder (`gitdir: ~`) and have it mounted for every later command
 * (sandbox review: ~/.bashrc written, other projects read). `refused` gets the git dirs left out.
 */
export function gitDirsOutside(workspace: string, refused: string[] = []): string[] {
  const dotGit = join(workspace, '.git')
  const dirs = gitDirsOf(dotGit).filter((dir) => !isInside(dir, workspace))
  if (dirs.length === 0) return []
  const [gitDir] = gitDirsOf(dotGit)
  if (gitDir === undefined || !leadsBack(gitDir, dotGit, workspace)) {
    refused.push(...dirs)
    return []
  }
  return dirs
}

function leadsBack(gitDir: string, dotGit: string, workspace: string): boolean {
  const here = realOrNull(dotGit)
  // A linked worktree: <common>/worktrees/<name>/gitdir holds the path of the worktree's .git file.
  const back = readSmall(join(gitDir, 'gitdir'))
  if (back !== null && here !== null) {
    const named = realOrNull(resolve(gitDir, back.trim()))
    const common = gitDirsOf(dotGit)[1]
    const inCommon = common !== undefined && dirname(gitDir) === join(common, 'worktrees')
    if (named === here && inCommon && isGitDir(common)) return true
  }
  // A submodule whose git dir lives in a superproject's .git/modules: its core.worktree is here,
  // and it has no commondir (one would take git, and the mount, anywhere).
  if (!isGitDir(gitDir) || kindOf(join(gitDir, 'commondir')) !== null) return false
  const config = readSmall(join(gitDir, 'config'))
  if (config === null) return false
  const worktree = parseGitConfig(config)
    .entries.filter((entry) => entry.name.toLowerCase() === 'core.worktree')
    .at(-1)?.value
  return worktree !== undefined && realOrNull(resolve(gitDir, worktree)) === realOrNull(workspace)
}

function readSmall(file: string): string | null {
  if (kindOf(file) !== 'file') return null
  try {
    return readFileSync(file, 'utf8').slice(0, 65_536)
  } catch {
    return null
  }
}
