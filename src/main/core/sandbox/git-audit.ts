import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseGitConfig } from '../secrets/git-config-text'
import { gitDirsOf } from './git-seal'
import { isInside, kindOf, readText, safeReaddir } from './host-paths'

/**
 * Config keys `git init`, `git clone` and `git submodule` write, which make git run nothing. A
 * repository an approved command created with any other key (core.fsmonitor, core.hooksPath,
 * core.sshCommand, an alias, a filter, remote.*.uploadpack, submodule.*.update, include.path…)
 * is one the person's own git would obey later, outside the sandbox.
 */
const HARMLESS_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|worktree|sparsecheckout|sparsecheckoutcone|autocrlf|eol)$/,
  /^remote\..+\.(url|pushurl|fetch|tagopt|mirror|promisor|partialclonefilter)$/,
  /^branch\..+\.(remote|merge|rebase|pushremote)$/,
  /^submodule\..+\.(url|active|branch)$/,
  /^extensions\.(objectformat|partialclone|noop)$/,
  /^(init\.defaultbranch|user\.name|user\.email|pull\.rebase|push\.default|fetch\.prune|lfs\.repositoryformatversion)$/,
]

/** What existed before the run, to tell what the command made. */
export interface GitBaseline {
  /** `.git` entries (folders and files) in the workspace. */
  entries: Set<string>
  /** Sealed git dirs, and whether each had a commondir. */
  sealed: Map<string, boolean>
  /** Submodule config files left writable (GitSeal.restoredAfter), with their bytes before the run. */
  configs: Map<string, Buffer>
}

export function gitBaseline(entries: string[], sealed: string[], restoredAfter: string[]): GitBaseline {
  const configs = new Map<string, Buffer>()
  for (const path of restoredAfter) {
    try {
      configs.set(path, readFileSync(path))
    } catch {
      // Unreadable now: nothing to put back, and the audit reports it if it changes into something.
    }
  }
  return {
    entries: new Set(entries),
    sealed: new Map(sealed.map((dir) => [dir, kindOf(join(dir, 'commondir')) !== null])),
    configs,
  }
}

/**
 * After a workspace-write run (issue 19.2): a repository the command created inside the workspace
 * (a new `.git` folder, or a `.git` file leading to a git dir outside the sealed ones) that would
 * make the person's git run something, and a commondir planted in a sealed git dir, are moved
 * aside, so the person's next `git status` (which enters a gitlinked sub-repository) finds no
 * repository there. Returns one line per move, for the command's result.
 */
export function quarantinePlantedRepositories(
  workspace: string,
  baseline: GitBaseline,
  entriesNow: string[],
): string[] {
  const notes: string[] = []
  const sealedDirs = [...baseline.sealed.keys()]
  for (const [gitDir, had] of baseline.sealed) {
    const commondir = join(gitDir, 'commondir')
    if (!had && kindOf(commondir) !== null) {
      notes.push(
        moveAside(workspace, commondir, 'a commondir appeared, which points git at config elsewhere'),
      )
    }
  }
  for (const [path, before] of baseline.configs) notes.push(...restoreConfig(workspace, path, before))
  for (const entry of entriesNow) {
    if (baseline.entries.has(entry)) continue
    const dirs = gitDirsOf(entry).filter((dir) => !sealedDirs.some((sealed) => isInside(dir, sealed)))
    const danger = dirs.map(dangerIn).find((reason) => reason !== null)
    if (danger) notes.push(moveAside(workspace, entry, danger))
  }
  return notes
}

/** Why git would run something from this git dir, or null. */
function dangerIn(gitDir: string): string | null {
  for (const name of ['config', 'config.worktree']) {
    const path = join(gitDir, name)
    if (kindOf(path) === null) continue
    const text = kindOf(path) === 'file' ? readText(path) : null
    if (text === null) return `its ${name} cannot be read`
    const parsed = parseGitConfig(text)
    if (parsed.unreadable) return `its ${name} has a line git may read differently: ${parsed.unreadable}`
    const key = parsed.entries.find(
      ({ name: key }) => !HARMLESS_KEYS.some((rule) => rule.test(key.toLowerCase())),
    )
    if (key) return `its ${name} sets ${key.name}, which git would obey`
  }
  const hooks = safeReaddir(join(gitDir, 'hooks')).filter((name) => !name.endsWith('.sample'))
  if (hooks.length > 0) return `it has hooks (${hooks.slice(0, 3).join(', ')})`
  if (kindOf(join(gitDir, 'commondir')) !== null) return 'it has a commondir, which points git elsewhere'
  if (kindOf(join(gitDir, 'hooks')) === 'link' || kindOf(join(gitDir, 'config')) === 'link') {
    return 'its hooks or config is a symlink'
  }
  return null
}

/** A submodule's config may change only in core.worktree (what git submodule update rewrites). */
function restoreConfig(workspace: string, path: string, before: Buffer): string[] {
  let after: Buffer
  try {
    after = readFileSync(path)
  } catch {
    after = Buffer.alloc(0)
  }
  if (after.equals(before)) return []
  const entries = (text: string) =>
    parseGitConfig(text)
      .entries.filter((entry) => entry.name.toLowerCase() !== 'core.worktree')
      .map((entry) => `${entry.name.toLowerCase()}=${entry.value}`)
      .join('\n')
  const parsed = parseGitConfig(after.toString('utf8'))
  if (!parsed.unreadable && entries(after.toString('utf8')) === entries(before.toString('utf8'))) return []
  const shown = relative(workspace, path) || path
  try {
    // Atomic: a reader sees the old config or the restored one, never half of either.
    const temporary = `${path}.shellgate-restore-${process.pid}`
    writeFileSync(temporary, before, { mode: 0o644, flag: 'wx' })
    renameSync(temporary, path)
    return [
      `Shellgate put ${shown} back as it was before the run: a sandboxed command changed more than core.worktree in it, which your own git would obey outside the sandbox.`,
    ]
  } catch (error) {
    return [
      `WARNING: a sandboxed command changed ${shown} and Shellgate could not put it back (${(error as Error).message}). Do not run git in that submodule until you have looked at it.`,
    ]
  }
}

function moveAside(workspace: string, path: string, why: string): string {
  const aside = `${path}.quarantined-by-shellgate-${Date.now()}`
  const shown = relative(workspace, path) || path
  try {
    renameSync(path, aside)
    return `Shellgate moved ${shown} aside to ${relative(workspace, aside)}: a sandboxed command created it and ${why}; your own git would run that outside the sandbox. Look at it, and move it back only if you trust it.`
  } catch (error) {
    return `WARNING: a sandboxed command created ${shown} and ${why}, and Shellgate could not move it aside (${(error as Error).message}). Do not run git in or above it until you have looked at it.`
  }
}
