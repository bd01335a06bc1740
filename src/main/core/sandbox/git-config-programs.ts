import { mkdirSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { parseGitConfig } from '../secrets/git-config-text'
import { isInside, kindOf, readText, realOrNull } from './host-paths'
import type { LayoutEntry } from './layout-types'

/**
 * Config keys whose value is a program git runs, or a folder or file of them, as git reads it.
 * A sealed config that points into the work tree (husky's `core.hooksPath = .husky`, a filter
 * script in `tools/`) leaves what it names writable to an approved command, and the person's own
 * `git commit` then runs it outside the sandbox (sandbox review).
 */
const PROGRAM_KEYS = [
  /^core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass)$/,
  /^sequence\.editor$/,
  /^gpg(\..+)?\.program$/,
  /^diff\..+\.(textconv|command)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^credential(\..+)?\.helper$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
]

/**
 * The files and folders in the workspace that a sealed git dir's config names as programs (or as
 * the hooks folder, or an included config): read-only under workspace-write, like the git dir's
 * own hooks. A hooks folder that does not exist yet is made, empty, so nothing can be planted in it.
 */
export function sealConfiguredPrograms(
  gitDirs: readonly string[],
  workspace: string,
  create: boolean,
): LayoutEntry[] {
  const sealed: LayoutEntry[] = []
  const seen = new Set<string>()
  for (const gitDir of gitDirs) {
    const tree = basename(gitDir) === '.git' ? dirname(gitDir) : null
    for (const file of ['config', 'config.worktree']) {
      const text = readText(join(gitDir, file))
      if (text === null) continue
      for (const entry of parseGitConfig(text).entries) {
        const key = entry.name.toLowerCase()
        if (!PROGRAM_KEYS.some((pattern) => pattern.test(key))) continue
        const named = namedPath(key, entry.value, gitDir, tree)
        if (named === null || seen.has(named)) continue
        const real = realOrNull(named) ?? named
        if (!isInside(real, workspace)) continue
        seen.add(named)
        const hooks = key === 'core.hookspath'
        if (hooks && create && kindOf(real) === null) mkdirSync(real, { recursive: true })
        const kind = kindOf(real)
        if (kind !== 'dir' && kind !== 'file') continue
        sealed.push({
          path: real,
          kind,
          why: `${entry.name} in ${join(gitDir, file)} names it: git runs what it holds`,
        })
      }
    }
  }
  return sealed
}

/**
 * Where a value leads: a path for the hooks folder and includes, the program's own path (its first
 * word, when it has a slash) for the rest. Relative program and hooks paths are taken from the
 * work tree, as git runs them there; includes from the config's folder.
 */
function namedPath(key: string, value: string, gitDir: string, tree: string | null): string | null {
  const include = key.endsWith('.path') && key.startsWith('include')
  const word = include || key === 'core.hookspath' ? value.trim() : (value.trim().split(/\s+/)[0] ?? '')
  if (word === '' || word.startsWith('!')) return null
  if (!include && key !== 'core.hookspath' && !word.includes('/')) return null
  if (word.startsWith('~')) return null
  if (isAbsolute(word)) return word
  const base = include ? gitDir : tree
  return base === null ? null : resolve(base, word)
}
