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
 * work tree) name inside the workspace as a program, the hooks folder or an included config:
 * read-only under workspace-write, like the git dir's own hooks. Each is sealed at its first folder
 * below the work tree, so the folder cannot be renamed aside and replaced (`mv .husky x; mkdir -p
 * .husky/_`), and one that does not exist yet is made, empty, so nothing can be planted there.
 */
export function sealConfiguredPrograms(
  gitDirs: readonly string[],
  workspace: string,
  home: string,
  create: boolean,
): LayoutEntry[] {
  const sealed: LayoutEntry[] = []
  const seen = new Set<string>()
  const personal = [join(home, '.gitconfig'), join(home, '.config', 'git', 'config')]
  for (const gitDir of gitDirs) {
    const tree = basename(gitDir) === '.git' ? dirname(gitDir) : null
    const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree'), ...personal]
    for (const named of files.flatMap((file) => namedPaths(file, gitDir, tree, 0))) {
      const real = realOrNull(named.path) ?? named.path
      if (!isInside(real, workspace) || real === workspace) continue
      const top = join(workspace, relative(workspace, real).split(sep)[0] ?? '')
      if (seen.has(top)) continue
      seen.add(top)
      if (create && named.program && kindOf(top) === null) makeEmpty(top, real, named.hooks)
      const kind = kindOf(top)
      if (kind !== 'dir' && kind !== 'file') continue
      sealed.push({
        path: top,
        kind,
        why: `${named.key} in ${named.file} names ${real}: git runs what it holds`,
      })
    }
  }
  return sealed
}

interface NamedPath {
  path: string
  key: string
  file: string
  hooks: boolean
  /** The program itself (the value's first word) or the hooks folder: made to exist when missing. */
  program: boolean
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
    for (const [at, word] of words.entries()) {
      if (word === '' || word.startsWith('~') || word.startsWith('-')) continue
      if (!include && !hooks && !word.includes('/')) continue
      const path = isAbsolute(word) ? word : base === null ? null : resolve(base, word)
      if (path === null) continue
      found.push({ path, key: entry.name, file, hooks, program: hooks || (!include && at === 0) })
      if (include) found.push(...namedPaths(path, gitDir, tree, depth + 1))
    }
  }
  return found
}

/**
 * The first folder of a path that does not exist yet, made empty (git shows no empty folder). A
 * missing program at the top of the work tree is not made: an empty file there would show in
 * `git status`; the after-run audit of planted repositories does not cover it (left as is).
 */
function makeEmpty(top: string, named: string, hooks: boolean): void {
  if (!hooks && named === top) return
  try {
    mkdirSync(top, { recursive: true })
  } catch {
    // Nothing made: the command cannot make it either where this failed.
  }
}
