import { mkdirSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { parseGitConfig } from '../secrets/git-config-text'
import { isInside, kindOf, readText, realOrNull } from './host-paths'
import type { LayoutEntry } from './layout-types'

/**
 * Config keys whose value is a program git runs (or a command line holding one), a folder of
 * them, or a file git reads as more config. A sealed config that points into the work tree
 * (husky's `core.hooksPath = .husky/_`, a filter script in `tools/`) left what it names writable
 * to an approved command, and the person's own `git commit` then ran it (sandbox review).
 */
const PROGRAM_KEYS = [
  /^core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand)$/,
  /^sequence\.editor$/,
  /^pager\..+$/,
  /^alias\..+$/,
  /^gpg(\..+)?\.program$/,
  /^gpg\.ssh\.defaultkeycommand$/,
  /^diff\.external$/,
  /^diff\..+\.(textconv|command)$/,
  /^(difftool|mergetool)\..+\.(cmd|path)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^trailer\..+\.(command|cmd)$/,
  /^credential(\..+)?\.helper$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
]
const MAX_INCLUDE_DEPTH = 5

/**
 * What the sealed git dirs' configs (and the person's own, whose relative paths apply in every
 * work tree) name inside a work tree as a program, the hooks folder or an included config: the
 * path itself read-only under workspace-write, like the git dir's own hooks, and every folder
 * between it and the work tree a mount point of its own (still writable), so none can be renamed
 * aside and replaced (`mv .husky x; mkdir -p .husky/_`). A hooks folder that does not exist yet is
 * made, empty, so nothing can be planted there. Paths inside a `.git` are the seal's own business
 * (`core.fsmonitor = .git/hooks/fsmonitor-watchman`): never sealed here, or git could not commit.
 */
export function sealConfiguredPrograms(
  gitDirs: readonly string[],
  workspace: string,
  home: string,
  create: boolean,
): { protected: LayoutEntry[]; pinned: LayoutEntry[] } {
  const sealed: LayoutEntry[] = []
  const pinned: LayoutEntry[] = []
  const seen = new Set<string>()
  const personal = [join(home, '.gitconfig'), join(home, '.config', 'git', 'config')]
  for (const gitDir of gitDirs) {
    const tree = workTreeOf(gitDir)
    const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree'), ...personal]
    for (const named of files.flatMap((file) => namedPaths(file, gitDir, tree, 0))) {
      if (tree === null) continue
      if (create && named.hooks && kindOf(named.path) === null && isInside(named.path, tree)) {
        try {
          mkdirSync(named.path, { recursive: true })
        } catch {
          // Not made: the command cannot make it either where this failed.
        }
      }
      const real = realOrNull(named.path) ?? named.path
      if (!isInside(real, tree) || real === tree || !isInside(real, workspace)) continue
      if (relative(tree, real).split(sep).includes('.git')) continue
      const kind = kindOf(real)
      if ((kind !== 'dir' && kind !== 'file') || seen.has(real)) continue
      seen.add(real)
      sealed.push({ path: real, kind, why: `${named.key} in ${named.file} names it: git runs what it holds` })
      for (let dir = dirname(real); dir !== tree && isInside(dir, tree); dir = dirname(dir)) {
        if (seen.has(dir)) break
        seen.add(dir)
        pinned.push({
          path: dir,
          kind: 'dir',
          why: `holds ${real}, which a git config names: it cannot be renamed aside`,
        })
      }
    }
  }
  return { protected: sealed, pinned }
}

/** A git dir's work tree: the folder of a `.git`, or what a submodule's core.worktree names. */
export function workTreeOf(gitDir: string): string | null {
  if (basename(gitDir) === '.git') return dirname(gitDir)
  const config = readText(join(gitDir, 'config'))
  const worktree =
    config === null
      ? undefined
      : parseGitConfig(config)
          .entries.filter((entry) => entry.name.toLowerCase() === 'core.worktree')
          .at(-1)?.value
  return worktree === undefined ? null : realOrNull(resolve(gitDir, worktree))
}

interface NamedPath {
  path: string
  key: string
  file: string
  hooks: boolean
}

/** The paths a config file (and what it includes) names in its program keys. */
function namedPaths(file: string, gitDir: string, tree: string | null, depth: number): NamedPath[] {
  const text = readText(file)
  if (text === null || depth > MAX_INCLUDE_DEPTH) return []
  const found: NamedPath[] = []
  for (const entry of parseGitConfig(text).entries) {
    const key = entry.name.toLowerCase()
    if (!PROGRAM_KEYS.some((pattern) => pattern.test(key))) continue
    const include = key.startsWith('include') && key.endsWith('.path')
    const hooks = key === 'core.hookspath'
    // Includes are read from the config's own folder; programs and hooks run in the work tree.
    const base = include ? dirname(file) : tree
    const words = include || hooks ? [entry.value.trim()] : entry.value.replace(/^!/, '').split(/\s+/)
    for (const word of words) {
      if (word === '' || word.startsWith('~') || word.startsWith('-')) continue
      if (!include && !hooks && !word.includes('/')) continue
      const path = isAbsolute(word) ? word : base === null ? null : resolve(base, word)
      if (path === null) continue
      found.push({ path, key: entry.name, file, hooks })
      if (include) found.push(...namedPaths(path, gitDir, tree, depth + 1))
    }
  }
  return found
}
