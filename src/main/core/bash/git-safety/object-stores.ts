import path from 'node:path'
import { readRegularFile } from './bounded-read'
import { lstatOncePerCall, readdirOncePerCall, readOncePerCall, statOncePerCall } from './per-call-reads'
import { readCommonDir } from './read-hooks'
import { changedRecently } from '../places/recent-change'

const MAX_ALTERNATES_BYTES = 64 * 1024
// git follows alternates of alternates this deep, and no deeper.
const MAX_ALTERNATE_DEPTH = 5

/**
 * Where git reads this repository's contents from: its common git folder (a linked worktree's is
 * the main repository's), and every object store `objects/info/alternates` names, theirs in turn.
 * A `.git` file, a worktree or an alternates file may point outside the workspace, and then
 * `git log -p` prints another repository's files (issue 21, fourth review): each is judged as a
 * place the command reads. Throws (the safety check refuses) for an alternates file that is not
 * a plain file or is too large.
 */
export function repositoryStores(gitDir: string): string[] {
  const common = readCommonDir(gitDir) ?? gitDir
  const stores = [gitDir, ...(common === gitDir ? [] : [common])]
  // git follows a symlink among its own files as readily (`shallow`, `packed-refs`, `info/grafts`,
  // a rebase's to-do list, a worktree's `gitdir`) and prints their lines in its errors and its
  // status (`fatal: bad shallow line: <line>`): each is judged where it leads, like the stores.
  for (const dir of new Set([gitDir, common])) stores.push(...linkedStateFiles(dir))
  const seen = new Set<string>()
  let level = [path.join(common, 'objects')]
  for (let depth = 0; depth <= MAX_ALTERNATE_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = []
    for (const objects of level) {
      if (seen.has(objects)) continue
      seen.add(objects)
      stores.push(...(depth > 0 ? [objects] : []), ...linkedParts(objects))
      next.push(...alternatesOf(objects))
    }
    level = next
  }
  return stores
}

/**
 * The parts of an object store that are symlinks, each judged where it leads: the store itself,
 * a loose-object folder, `pack/`, or a pack file in it (`ln -s ~/other/.git/objects/pack`).
 */
function linkedParts(objects: string): string[] {
  const linked: string[] = []
  if (lstatOncePerCall(objects)?.isSymbolicLink()) linked.push(objects)
  for (const folder of [objects, path.join(objects, 'pack')]) linked.push(...linksIn(folder))
  return linked
}

// The links found in a folder, kept while its identity and times are the ones seen when it was
// listed (an entry added, removed or swapped changes them), and only for a folder whose last change
// is older than RECENT_CHANGE_MS: another change in the same clock tick could leave them as they were.
const MAX_FOLDERS = 256
const listedLinks = new Map<string, { stamp: string; links: string[] }>()

function linksIn(folder: string): string[] {
  const stats = statOncePerCall(folder)
  if (!stats?.isDirectory()) return []
  const stamp = `${stats.dev}:${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}`
  const kept = listedLinks.get(folder)
  if (kept?.stamp === stamp) return kept.links
  const links = (readdirOncePerCall(folder) ?? [])
    .filter((entry) => entry.isSymbolicLink())
    .map((entry) => path.join(folder, entry.name))
  if (!changedRecently(stats)) {
    if (listedLinks.size >= MAX_FOLDERS) listedLinks.clear()
    listedLinks.set(folder, { stamp, links })
  } else listedLinks.delete(folder)
  return links
}

/** Folders of a git dir whose files git reads while a read-only command runs. */
const STATE_FOLDERS = [
  '',
  'info',
  'objects/info',
  'rebase-merge',
  'rebase-apply',
  'sequencer',
  'refs',
  'logs',
]

function linkedStateFiles(gitDir: string): string[] {
  const linked = STATE_FOLDERS.flatMap((folder) => linksIn(path.join(gitDir, folder)))
  const worktrees = path.join(gitDir, 'worktrees')
  if (statOncePerCall(worktrees)?.isDirectory())
    for (const entry of readdirOncePerCall(worktrees) ?? [])
      if (entry.isDirectory()) linked.push(...linksIn(path.join(worktrees, entry.name)))
  return linked
}

function alternatesOf(objects: string): string[] {
  return readOncePerCall(`alternates\0${objects}`, () => {
    const file = path.join(objects, 'info', 'alternates')
    // Most repositories have none, and a failed open's exception costs more than this lstat.
    if (lstatOncePerCall(file) === null) return []
    const data = readRegularFile(file, { maxBytes: MAX_ALTERNATES_BYTES, followSymlinks: true })
    if (data === null) return []
    return (
      data
        .toString('utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
        // A quoted line is C-style escaped; its bytes name some folder, judged as written.
        .map((line) => (line.startsWith('"') && line.endsWith('"') ? line.slice(1, -1) : line))
        .map((line) => path.resolve(objects, line))
    )
  })
}
