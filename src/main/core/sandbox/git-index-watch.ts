import { readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { type IndexWatch, readGitIndexFile } from '../git-index/index-file'
import { workTreeOf } from './git-config-programs'
import { isInside, kindOf } from './host-paths'
import type { LayoutEntry } from './layout-types'

/**
 * The sealed files on disk cannot change, but the index can, and the person's own git writes
 * from it: a command that stages a new `.husky/pre-commit` (`git update-index --cacheinfo`) has
 * `git checkout -- .` or `git reset --hard` write it, and the next commit runs it (fourth sandbox
 * review). And an entry marked skip-worktree or assume-unchanged hides its changes from git
 * status, git diff and git commit -a. Neither can be undone without running git on a repository
 * the command shaped, so both are said, with what to look at.
 */
export interface IndexBaseline {
  gitDir: string
  tree: string
  watch: IndexWatch
  stamps: Map<string, string>
  unlisted: Set<string>
}

const MAX_INDEX_BYTES = 64 * 1024 * 1024

export function watchIndexes(
  gitDirs: readonly string[],
  workspace: string,
  sealed: readonly LayoutEntry[],
): IndexBaseline[] {
  const watched: IndexBaseline[] = []
  for (const gitDir of gitDirs) {
    const tree = workTreeOf(gitDir)
    if (tree === null || !isInside(tree, workspace)) continue
    const inTree = sealed.filter((entry) => isInside(entry.path, tree) && entry.path !== tree)
    const files = new Set(
      inTree.filter((entry) => entry.kind === 'file').map((entry) => toIndexPath(tree, entry.path)),
    )
    const folders = inTree
      .filter((entry) => entry.kind === 'dir')
      .map((entry) => `${toIndexPath(tree, entry.path)}/`)
    const watch: IndexWatch = (path) => files.has(path) || folders.some((folder) => path.startsWith(folder))
    const facts = indexFacts(gitDir, watch)
    if (facts === null) continue
    watched.push({ gitDir, tree, watch, stamps: facts.stamps, unlisted: new Set(facts.unlisted) })
  }
  return watched
}

export function indexWarnings(workspace: string, baselines: readonly IndexBaseline[]): string[] {
  const notes: string[] = []
  for (const before of baselines) {
    const now = indexFacts(before.gitDir, before.watch)
    if (now === null) continue
    const where = relative(workspace, before.tree) || '.'
    const staged = [...now.stamps]
      .filter(([path, stamp]) => before.stamps.get(path) !== stamp)
      .map(([path]) => path)
    if (staged.length > 0) {
      notes.push(
        `WARNING: a sandboxed command staged new contents for ${list(staged)} in ${where}, which your git config runs as a program or hook. \`git checkout -- .\` or \`git reset --hard\` would write them and git would then run them: look with \`git diff --cached -- ${staged[0]}\` first.`,
      )
    }
    const hidden = now.unlisted.filter((path) => !before.unlisted.has(path))
    if (hidden.length > 0) {
      notes.push(
        `WARNING: a sandboxed command marked ${list(hidden)} in ${where} skip-worktree or assume-unchanged, so git status, git diff and git commit -a no longer show their changes. See them with \`git ls-files -v | grep -v '^H'\`.`,
      )
    }
  }
  return notes
}

function indexFacts(gitDir: string, watch: IndexWatch) {
  const facts = readGitIndexFile(join(gitDir, 'index'), readIndexBytes, watch)
  return 'problem' in facts ? null : facts
}

export function readIndexBytes(file: string): Buffer | null {
  if (kindOf(file) !== 'file') return null
  if (statSync(file).size > MAX_INDEX_BYTES) throw new Error(`${file} is over ${MAX_INDEX_BYTES} bytes`)
  return readFileSync(file)
}

const toIndexPath = (tree: string, path: string) => relative(tree, path).split(sep).join('/')

function list(paths: readonly string[]): string {
  return paths.slice(0, 3).join(', ') + (paths.length > 3 ? ` and ${paths.length - 3} more` : '')
}
