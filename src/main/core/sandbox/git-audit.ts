import { lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { readGitIndexFile } from '../git-index/index-file'
import { parseGitConfig } from '../secrets/git-config-text'
import { personalProgramIn, workTreeOf } from './git-config-programs'
import { type IndexBaseline, indexWarnings, readIndexBytes, watchIndexes } from './git-index-watch'
import { type StateSnapshot, sequencerState, stateDanger } from './git-sequencer-state'
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
  /** Each sealed git dir's rebase and sequencer state as it was (git-sequencer-state.ts). */
  state: StateSnapshot
  /** Which baseline entry leads to each sealed git dir: a git dir has one work tree. */
  claimedBy: Map<string, string>
  /** Legacy and rerere folders in each sealed git dir that existed (git-audit's SURPRISES). */
  present: Set<string>
  /** Program paths a config names that did not exist (ConfiguredPrograms.missing), with why. */
  missingPrograms: Map<string, string>
  /** The sealed repositories' indexes, as far as the programs their configs name (git-index-watch.ts). */
  indexes: IndexBaseline[]
}

/**
 * Folders git obeys in a git dir merely because they exist, and never makes on its own today: a
 * planted `rr-cache` turns rerere on, so the person's next merge takes the command's resolution;
 * `remotes/<name>` and `branches/<name>` define remotes `git remote -v` does not list.
 */
const SURPRISES: Record<string, string> = {
  'rr-cache': "it turns rerere on, and your next merge would take the command's recorded resolution",
  remotes: 'it defines remotes git remote -v does not list, which git pull would fetch from',
  branches: 'it defines remotes git remote -v does not list, which git pull would fetch from',
}

export function gitBaseline(
  entries: string[],
  sealed: string[],
  restoredAfter: string[],
  missingPrograms: readonly LayoutEntry[] = [],
  sealedPrograms: readonly LayoutEntry[] = [],
  workspace: string | null = null,
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
    indexes: workspace === null ? [] : watchIndexes(sealed, workspace, sealedPrograms),
    state: sequencerState(sealed),
    claimedBy: new Map(
      entries.flatMap((entry) => gitDirsOf(entry).map((dir) => [dir, entry] as const)).reverse(),
    ),
    present: new Set([
      ...sealed
        .flatMap((dir) => Object.keys(SURPRISES).map((name) => join(dir, name)))
        .filter((path) => kindOf(path) !== null),
      ...sealed.filter(replaceRefs).map((dir) => join(dir, 'refs', 'replace')),
    ]),
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
  home: string,
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
  notes.push(...indexWarnings(workspace, baseline.indexes))
  // A program a config names, made by the command: the person's git would run it. (A folder is
  // left: a build's output folder is named on many an alias's command line.)
  for (const [path, why] of baseline.missingPrograms) {
    const kind = kindOf(path)
    if (kind !== null && kind !== 'dir')
      notes.push(moveAside(workspace, path, why.replace(' names it:', ' names it, and')))
  }
  for (const [file, before] of baseline.state) {
    // The whole state folder goes aside (the rebase or cherry-pick it belongs to was the
    // command's own, or is no longer what the person started).
    const danger = stateDanger(file, before)
    if (danger && kindOf(dirname(file)) === 'dir') notes.push(moveAside(workspace, dirname(file), danger))
  }
  for (const dir of sealedDirs) {
    for (const [name, why] of Object.entries(SURPRISES)) {
      const path = join(dir, name)
      if (!baseline.present.has(path) && kindOf(path) !== null) notes.push(moveAside(workspace, path, why))
    }
    if (!baseline.present.has(join(dir, 'refs', 'replace')) && replaceRefs(dir)) {
      notes.push(
        `WARNING: ${relative(workspace, dir) || dir} has replace refs (git replace): git log and git diff show the replacements, while git push sends the real objects. See them with \`git replace -l\`.`,
      )
    }
  }
  // A sealed git dir swapped for another folder of its name, behind a gitfile or link that did not
  // change (`mv x/gd x/old; mkdir x/gd`; only its children were mount points): judged afresh.
  for (const [dir, identity] of baseline.sealedIdentity) {
    if (kindOf(dir) !== 'dir' || identityOf(dir) === identity) continue
    const danger = dangerIn(dir)
    if (danger)
      notes.push(moveAside(workspace, dir, `it replaced a git dir sealed for the run, and ${danger}`))
  }
  const judged = new Set<string>()
  const queue = [...entriesNow, ...gitlinkedEntries(workspace, sealedDirs, notes)]
  for (let next = 0; next < queue.length && next < MAX_ENTRIES_JUDGED; next += 1) {
    const entry = queue[next] as string
    // Judged by where it really is: a gitlink through a link to `.` (`self/self/…`) is one entry.
    const real = join(realOrNull(dirname(entry)) ?? dirname(entry), basename(entry))
    if (judged.has(real)) continue
    judged.add(real)
    try {
      judgeEntry(entry)
    } catch (error) {
      // One odd entry (ENOTDIR, ELOOP, a race) never silences the rest of the audit.
      notes.push(
        `WARNING: Shellgate could not check ${relative(workspace, entry) || entry} after the run (${(error as Error).message}). Do not run git in or above it until you have looked at it.`,
      )
    }
  }
  if (queue.length > MAX_ENTRIES_JUDGED)
    notes.push(
      `WARNING: the command left more than ${MAX_ENTRIES_JUDGED} repositories and submodule links to check; Shellgate checked the first ${MAX_ENTRIES_JUDGED}. Do not run git status here until you have looked.`,
    )
  return notes

  function judgeEntry(entry: string): void {
    // A bare-shaped folder (HEAD, objects, refs) is a repository to git's discovery whatever its
    // name: what goes aside is its HEAD, never the folder (it may be the workspace itself).
    const aside = basename(entry) === '.git' ? entry : join(entry, 'HEAD')
    // What an audit moved aside is never trusted from a baseline taken before the move: a run that
    // started earlier and moves it back is judged afresh (an inode reused by an honest `git init`
    // is judged too, and passes as any new repository does).
    const trusted = !wasQuarantined(entry) && !wasQuarantined(aside)
    if (trusted && baseline.entries.get(entry) === identityOf(entry)) return
    // Only the git dirs sealed for this run are trusted as they are: a new one inside a sealed
    // dir's writable parts (`.git/objects/evil`, named by a new gitfile) is judged like any other.
    const found = gitDirsOf(entry)
    // A `.git` git may still follow (a gitfile this reading cannot resolve, a link to one) is
    // judged the worst case: moved aside, never passed unread.
    if (found.length === 0 && kindOf(entry) !== null && kindOf(entry) !== 'dir') {
      notes.push(moveAside(workspace, entry, 'it leads to no git dir Shellgate can check'))
      return
    }
    // A sealed git dir reached from a second place gets a second work tree, the command's, where
    // the relative programs its config names (a filter's `tools/clean.sh`) are the command's files.
    const owner = found
      .map((dir) => baseline.claimedBy.get(dir))
      .find((by) => by !== undefined && by !== entry)
    if (owner !== undefined) {
      notes.push(
        moveAside(
          workspace,
          aside,
          `it gives the git dir of ${relative(workspace, owner) || owner} a second work tree, the command's`,
        ),
      )
      return
    }
    const dirs = found.filter(
      (dir) => wasQuarantined(dir) || baseline.sealedIdentity.get(dir) !== identityOf(dir),
    )
    const tree = (dir: string) =>
      basename(entry) === '.git' ? dirname(entry) : (workTreeOf(dir) ?? dirname(entry))
    const danger =
      dirs.map(dangerIn).find((reason) => reason !== null) ??
      dirs.map((dir) => personalProgramIn(tree(dir), workspace, home)).find((reason) => reason !== null)
    if (danger) notes.push(moveAside(workspace, aside, danger))
    // A planted repository's own submodules: git status enters them too.
    else for (const dir of dirs) queue.push(...gitlinksOf(workspace, dir, notes))
  }
}

/** Enough for any real workspace's repositories and their submodules; a flood stops here. */
const MAX_ENTRIES_JUDGED = 50_000

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
  return sealedDirs.flatMap((gitDir) => gitlinksOf(workspace, gitDir, notes))
}

function gitlinksOf(workspace: string, gitDir: string, notes: string[]): string[] {
  const tree = workTreeOf(gitDir)
  if (tree === null || !isInside(tree, workspace)) return []
  const facts = readGitIndexFile(join(gitDir, 'index'), readIndexBytes)
  if ('problem' in facts) {
    if (kindOf(join(gitDir, 'index')) === null) return []
    notes.push(
      `WARNING: Shellgate could not read ${relative(workspace, join(gitDir, 'index')) || gitDir} (${facts.problem}), so it could not check the submodules it records for something a sandboxed command planted. Do not run git status there until you have looked.`,
    )
    return []
  }
  return facts.gitlinks.map((link) => join(tree, link, '.git'))
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

/**
 * What the audits of this process moved aside, by device and inode (a rename keeps both): a later
 * run that moves one back, having started before the move and so finding it in its own baseline,
 * does not get it past (fourth sandbox review: two overlapping runs).
 */
const quarantined = new Set<string>()

function inodeOf(path: string): string | null {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false })
    return stats ? `${stats.dev}:${stats.ino}` : null
  } catch {
    // ENOTDIR, ELOOP: nothing there this audit can have moved.
    return null
  }
}

function wasQuarantined(path: string): boolean {
  const inode = inodeOf(path)
  return inode !== null && quarantined.has(inode)
}

/** Replace refs, loose or packed: git log shows the replacement, git push the real object. */
function replaceRefs(gitDir: string): boolean {
  if (safeReaddir(join(gitDir, 'refs', 'replace')).length > 0) return true
  return readText(join(gitDir, 'packed-refs'))?.includes(' refs/replace/') === true
}

/** Renames a planted path aside (inside the workspace only) and says so; `why` ends the sentence. */
export function moveAside(workspace: string, path: string, why: string): string {
  const aside = `${path}.quarantined-by-shellgate-${Date.now()}`
  const shown = relative(workspace, path) || path
  // Shellgate moves only what lies in the workspace: a path the command routed through a link
  // (a gitlink `lnk` to another repository) names someone else's files, which are only said.
  const folder = realOrNull(dirname(path))
  if (folder === null || !isInside(folder, workspace)) {
    return `WARNING: a sandboxed command made ${shown} lead out of the workspace${folder ? `, to ${join(folder, basename(path))}` : ''}, where ${why}. Shellgate did not touch it there. Do not run git in or above it until you have looked at it.`
  }
  try {
    renameSync(path, aside)
    const inode = inodeOf(aside)
    if (inode !== null) quarantined.add(inode)
    return `Shellgate moved ${shown} aside to ${relative(workspace, aside)}: a sandboxed command created it and ${why}; your own git would run that outside the sandbox. Look at it, and move it back only if you trust it.`
  } catch (error) {
    return `WARNING: a sandboxed command created ${shown} and ${why}, and Shellgate could not move it aside (${(error as Error).message}). Do not run git in or above it until you have looked at it.`
  }
}
