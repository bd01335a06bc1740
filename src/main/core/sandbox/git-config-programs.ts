import { mkdirSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { parseGitConfig } from '../secrets/git-config-text'
import { commandLineWords } from './command-line-words'
import { SEALED_DIRS, SEALED_FILES } from './git-seal'
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
  /^interactive\.difffilter$/,
  /^sendemail\.(.+\.)?(smtpserver|tocmd|cccmd|headercmd)$/,
  /^imap\.tunnel$/,
  /^submodule\..+\.update$/,
  /^hook\..+\.command$/,
  /^(browser|man)\..+\.(cmd|path)$/,
  /^web\.browser$/,
  /^uploadpack\.packobjectshook$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
]
/** A remote URL (or its rewrite) through git's `ext::` transport is a command line git runs. */
const EXT_URL_KEYS = /^(remote\..+\.(url|pushurl)|url\..+\.(insteadof|pushinsteadof))$/
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
): ConfiguredPrograms {
  const sealed: LayoutEntry[] = []
  const pinned: LayoutEntry[] = []
  const missing: LayoutEntry[] = []
  const seen = new Set<string>()
  const personal = [join(home, '.gitconfig'), join(home, '.config', 'git', 'config')]
  for (const gitDir of gitDirs) {
    const tree = workTreeOf(gitDir)
    if (tree === null) continue
    const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree'), ...personal]
    for (const named of files.flatMap((file) => namedPaths(file, tree, home, 0))) {
      const why = `${named.key} in ${named.file} names it: git runs what it holds`
      if (create && named.hooks && kindOf(named.path) === null && isInside(named.path, tree)) {
        try {
          mkdirSync(named.path, { recursive: true })
        } catch {
          // Not made: the command cannot make it either where this failed.
        }
      }
      const real = realOrNull(named.path) ?? named.path
      if (!isInside(real, tree) || real === tree || !isInside(real, workspace)) continue
      // Inside a `.git`, what the seal already keeps read-only is its business (git's own
      // `.git/hooks/fsmonitor-watchman`); anything else there (`core.hooksPath = .git/my-hooks`,
      // a filter in `.git/clean.sh`) is writable git state unless sealed here. No folder inside a
      // `.git` is pinned: git renames and rewrites its own files there.
      const parts = relative(tree, real).split(sep)
      const inGit = parts.indexOf('.git')
      if (inGit !== -1 && sealedByGitSeal(parts.slice(inGit + 1))) continue
      const kind = kindOf(real)
      if (seen.has(real)) continue
      // A program word may name a folder for reasons of its own (`node run.js src/`): only the
      // files a command line names are sealed, and a hooks folder or include as it is.
      if (kind === null) {
        if (!named.pathLike) continue
        seen.add(real)
        missing.push({ path: real, kind: 'file', why })
        continue
      }
      if (kind !== 'file' && (kind !== 'dir' || named.program)) continue
      seen.add(real)
      sealed.push({ path: real, kind, why })
      if (inGit !== -1) continue
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
  return { protected: sealed, pinned, missing }
}

export interface ConfiguredPrograms {
  /** Files (and hooks folders, includes) a config names, read-only for the run. */
  protected: LayoutEntry[]
  /** The folders between each and its work tree, mount points so none can be renamed aside. */
  pinned: LayoutEntry[]
  /**
   * Named paths that do not exist yet (`node tools/lint.js` before `tools/` is made): nothing
   * can be mounted there without littering the work tree, so the after-run audit moves aside
   * whatever the command put there (git-audit.ts).
   */
  missing: LayoutEntry[]
}

/**
 * Why a repository the command made would run the command's files through the person's own
 * config, or null: the relative programs and hooks folder `~/.gitconfig` names apply in every
 * work tree, so a planted repository whose tree holds them (`.githooks/pre-commit` for a
 * `core.hooksPath = .githooks`) runs them however harmless its own config is.
 */
export function personalProgramIn(tree: string, workspace: string, home: string): string | null {
  if (!isInside(tree, workspace)) return null
  for (const file of [join(home, '.gitconfig'), join(home, '.config', 'git', 'config')]) {
    for (const named of namedPaths(file, tree, home, 0)) {
      if (!named.program && !named.hooks) continue
      if (!isInside(named.path, tree) || named.path === tree) continue
      const kind = kindOf(named.path)
      if (kind === 'file' || (kind === 'dir' && named.hooks) || kind === 'link')
        return `${named.key} in ${named.file} names ${relative(tree, named.path)}, which it holds`
    }
  }
  return null
}

/** Whether a path inside a git dir (its parts below it) is one the seal keeps read-only. */
function sealedByGitSeal(parts: readonly string[]): boolean {
  const [first] = parts
  if (first === undefined) return true
  return SEALED_DIRS.includes(first) || SEALED_FILES.includes(parts.join('/'))
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
  /** A word of a command line (not a hooks folder or include): only a file is sealed for it. */
  program: boolean
  /** Written as a path (a slash, or a script's extension), not a name the shell looks up or an argument. */
  pathLike: boolean
}

const SCRIPT_EXTENSION = /\.(c?js|mjs|ts|sh|bash|zsh|py|rb|pl|php|lua)$/i

/** The paths a config file (and what it includes) names in its program keys. */
function namedPaths(file: string, tree: string | null, home: string, depth: number): NamedPath[] {
  const text = readText(file)
  if (text === null || depth > MAX_INCLUDE_DEPTH) return []
  const found: NamedPath[] = []
  for (const entry of parseGitConfig(text).entries) {
    const key = entry.name.toLowerCase()
    const line = commandLineOf(entry.name, key, entry.value)
    if (line === null) continue
    const include = key.startsWith('include') && key.endsWith('.path')
    const hooks = key === 'core.hookspath'
    // Includes are read from the config's own folder; programs and hooks run in the work tree.
    const base = include ? dirname(file) : tree
    // git reads a path-valued key (hooksPath, an include) whole, `~/` being the home folder; a
    // command line is split by the shell, which reads an unquoted `~/` the same way.
    const words = include || hooks ? [pathValue(line.trim())] : commandLineWords(line)
    for (const word of words) {
      const text = word.text.startsWith('-') ? word.text.slice(word.text.indexOf('=') + 1) : word.text
      if (text === '' || text.startsWith('-') || text.includes('%')) continue
      const path = word.fromHome
        ? join(home, text)
        : isAbsolute(text)
          ? text
          : base === null
            ? null
            : resolve(base, text)
      if (path === null) continue
      const pathLike = include || hooks || word.fromHome || text.includes('/') || SCRIPT_EXTENSION.test(text)
      found.push({ path, key: entry.name, file, hooks, program: !include && !hooks, pathLike })
      if (include) found.push(...namedPaths(path, tree, home, depth + 1))
    }
  }
  return found
}

/** The command line (or path) a config entry holds, when its key is one git runs or reads. */
function commandLineOf(name: string, key: string, value: string): string | null {
  if (EXT_URL_KEYS.test(key)) {
    // `url.<base>.insteadOf` rewrites to its subsection, the URL git then fetches from.
    const url = key.startsWith('url.') ? name.slice(4, name.lastIndexOf('.')) : value
    return url.startsWith('ext::') ? url.slice('ext::'.length).replaceAll('% ', '\\ ') : null
  }
  if (!PROGRAM_KEYS.some((pattern) => pattern.test(key))) return null
  if (key.startsWith('submodule.')) return value.startsWith('!') ? value.slice(1) : null
  return value.replace(/^!/, '')
}

/** A path-valued key, read as git does: `~/x` and `~` are in the home folder. */
function pathValue(value: string): { text: string; fromHome: boolean } {
  if (value === '~') return { text: '', fromHome: true }
  if (value.startsWith('~/')) return { text: value.slice(2), fromHome: true }
  return { text: value, fromHome: false }
}
