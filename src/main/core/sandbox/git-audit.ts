import { lstatSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { readGitIndexFile } from '../git-index/index-file'
import { parseGitConfig } from '../secrets/git-config-text'
import { workTreeOf } from './git-config-programs'
import { gitDirsOf } from './git-seal'
import { isInside, kindOf, readText, realOrNull, safeReaddir } from './host-paths'
import type { LayoutEntry } from './layout-types'

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
  /**
   * `.git` entries (folders, files, symlinks) in the workspace, each with its identity: a folder's
   * device and inode (its times change with every commit), a file's or link's times too. An entry
   * replaced under the same name (`mv .git .git-old; mkdir .git`, a gitfile rewritten) is new.
   */
  entries: Map<string, string>
  /** Sealed git dirs, and whether each had a commondir. */
  sealed: Map<string, boolean>
  /** Each sealed git dir's device and inode: one swapped for another folder of that name is not it. */
  sealedIdentity: Map<string, string>
  /** Submodule config files left writable (GitSeal.restoredAfter), with their bytes before the run. */
  configs: Map<string, Buffer>
  /** Each sealed git dir's rebase and sequencer to-do lists as they were (null: none). */
  todos: Map<string, string | null>
  /** Program paths a config names that did not exist (ConfiguredPrograms.missing), with why. */
  missingPrograms: Map<string, string>
}

/**
 * To-do lists git executes when the person continues: `exec` lines run a shell command
 * (`git rebase --continue`, `git cherry-pick --continue`), and `git status` tells them to.
 */
const TODO_FILES = [join('rebase-merge', 'git-rebase-todo'), join('sequencer', 'todo')]
const EXEC_LINE = /^\s*(?:x|exec)\s/m

export function gitBaseline(
  entries: string[],
  sealed: string[],
  restoredAfter: string[],
  missingPrograms: readonly LayoutEntry[] = [],
): GitBaseline {
  const configs = new Map<string, Buffer>()
  for (const path of restoredAfter) {
    try {
      configs.set(path, readFileSync(path))
    } catch {
      // Unreadable now: nothing to put back, and the audit reports it if it changes into something.
    }
  }
  return {
    entries: new Map(entries.map((entry) => [entry, identityOf(entry)])),
    sealed: new Map(sealed.map((dir) => [dir, kindOf(join(dir, 'commondir')) !== null])),
    sealedIdentity: new Map(sealed.map((dir) => [dir, identityOf(dir)])),
    configs,
    missingPrograms: new Map(missingPrograms.map((entry) => [entry.path, entry.why])),
    // Every linked worktree's git dir keeps its own rebase state: theirs are lists too.
    todos: new Map(
      sealed
        .flatMap((dir) => [
          dir,
          ...safeReaddir(join(dir, 'worktrees')).map((name) => join(dir, 'worktrees', name)),
        ])
        .flatMap((dir) => TODO_FILES.map((file) => [join(dir, file), readText(join(dir, file))] as const)),
    ),
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
  // A program a config names, made by the command: the person's git would run it. (A folder is
  // left: a build's output folder is named on many an alias's command line.)
  for (const [path, why] of baseline.missingPrograms) {
    const kind = kindOf(path)
    if (kind === null || kind === 'dir') continue
    // Through a folder the command turned into a link out of the workspace, the file there is not
    // the command's to move: only said.
    const folder = realOrNull(dirname(path))
    if (folder !== null && isInside(folder, workspace))
      notes.push(moveAside(workspace, path, why.replace(' names it:', ' names it, and')))
    else
      notes.push(
        `WARNING: a sandboxed command made ${relative(workspace, path)} lead out of the workspace, where ${why}. Do not run git here until you have looked at it.`,
      )
  }
  for (const [todo, before] of baseline.todos) {
    const now = readText(todo)
    if (now === null || now === before || !EXEC_LINE.test(now)) continue
    // A list that gained a command to run: the whole state folder goes aside (the rebase or
    // cherry-pick it belongs to was the command's own, or is no longer what the person started).
    const execs = (text: string | null) =>
      (text ?? '').split('\n').filter((line) => EXEC_LINE.test(`${line}\n`))
    if (execs(now).every((line) => execs(before).includes(line))) continue
    notes.push(moveAside(workspace, dirname(todo), 'its to-do list runs a command when you continue'))
  }
  // A sealed git dir swapped for another folder of its name, behind a gitfile or link that did not
  // change (`mv x/gd x/old; mkdir x/gd`; only its children were mount points): judged afresh.
  for (const [dir, identity] of baseline.sealedIdentity) {
    if (kindOf(dir) !== 'dir' || identityOf(dir) === identity) continue
    const danger = dangerIn(dir)
    if (danger)
      notes.push(moveAside(workspace, dir, `it replaced a git dir sealed for the run, and ${danger}`))
  }
  for (const entry of new Set([...entriesNow, ...gitlinkedEntries(workspace, sealedDirs, notes)])) {
    if (baseline.entries.get(entry) === identityOf(entry)) continue
    // Only the git dirs sealed for this run are trusted as they are: a new one inside a sealed
    // dir's writable parts (`.git/objects/evil`, named by a new gitfile) is judged like any other.
    const found = gitDirsOf(entry)
    // A `.git` git may still follow (a gitfile this reading cannot resolve, a link to one) is
    // judged the worst case: moved aside, never passed unread.
    if (found.length === 0 && kindOf(entry) !== null && kindOf(entry) !== 'dir') {
      notes.push(moveAside(workspace, entry, 'it leads to no git dir Shellgate can check'))
      continue
    }
    const dirs = found.filter((dir) => baseline.sealedIdentity.get(dir) !== identityOf(dir))
    const danger = dirs.map(dangerIn).find((reason) => reason !== null)
    if (danger) notes.push(moveAside(workspace, entry, danger))
  }
  return notes
}

function identityOf(entry: string): string {
  try {
    const stats = lstatSync(entry)
    return stats.isDirectory()
      ? `${stats.dev}:${stats.ino}`
      : `${stats.dev}:${stats.ino}:${stats.ctimeMs}:${stats.size}`
  } catch {
    return 'gone'
  }
}

/**
 * The `.git` entries of every submodule the sealed repositories' indexes record: `git status`
 * enters each one, so each is audited even where the scan after the run stopped at its cap of
 * folders (sandbox review: a gitlinked repository past 20 000 folders was never looked at).
 */
function gitlinkedEntries(workspace: string, sealedDirs: string[], notes: string[]): string[] {
  const entries: string[] = []
  for (const gitDir of sealedDirs) {
    const tree = workTreeOf(gitDir)
    if (tree === null || !isInside(tree, workspace)) continue
    const facts = readGitIndexFile(join(gitDir, 'index'), readIndexBytes)
    if ('problem' in facts) {
      notes.push(
        `WARNING: Shellgate could not read ${relative(workspace, join(gitDir, 'index')) || gitDir} (${facts.problem}), so it could not check the submodules it records for something a sandboxed command planted. Do not run git status there until you have looked.`,
      )
      continue
    }
    for (const link of facts.gitlinks) entries.push(join(tree, link, '.git'))
  }
  return entries
}

const MAX_INDEX_BYTES = 64 * 1024 * 1024

function readIndexBytes(file: string): Buffer | null {
  if (kindOf(file) !== 'file') return null
  if (statSync(file).size > MAX_INDEX_BYTES) throw new Error(`${file} is over ${MAX_INDEX_BYTES} bytes`)
  return readFileSync(file)
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
