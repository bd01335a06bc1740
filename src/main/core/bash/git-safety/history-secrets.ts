import { type Dirent, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { isSecretFileName } from '../../secrets/secret-file-names'
import { findSystemGit, runGitToJudge } from './git-config-by-git'
import { RECENT_CHANGE_MS } from '../places/recent-change'

/**
 * Secret-named files anywhere in the repository's history: `git log -p`, `git show REV` and
 * `git grep x REV` print a `.env` that was committed and later deleted, which today's tree and
 * index no longer hold. Read by git itself (`rev-list --all --reflog --objects`: every path of
 * every tree reachable from a ref, the stash or a reflog entry, merges included) and cached by
 * the identity of what decides reachability: HEAD, packed-refs, every folder under refs/, logs/
 * and worktrees/ (a ref is written by renaming a file into its folder), and the pack folder.
 */
export type HistorySecrets = { paths: string[]; objects: ReachableObjects | null } | { unknown: string }

/**
 * Every object the same listing reaches, so a command that names an object by its id (`git
 * cat-file -p 16f45a0`, `git show --stat <blob>`) can be judged: an object no ref or reflog
 * reaches (a blob left by `git add .env` then `git rm --cached`, a dropped stash) has no file
 * name we could judge. null when the repository holds more objects than we keep.
 */
export interface ReachableObjects {
  /** Commits, and trees and blobs under a file name (secret-named blobs are in `secret` as well). */
  named: ReadonlySet<string>
  /** Blobs and trees a ref points at directly (and root trees): reached, but under no file name. */
  unnamed: ReadonlySet<string>
  /** Blobs under a secret's file name, with that name. */
  secret: ReadonlyMap<string, string>
}

const TIMEOUT_MS = 3_000
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024
const MAX_STAMPED_FOLDERS = 512
const MAX_CACHED = 32
// About 100 bytes an id in a Set: a repository with more objects than this is judged without them.
const MAX_KEPT_OBJECTS = 250_000
// A ref moved in the same clock tick as the last change could keep the folder's times: a layout
// changed within RECENT_CHANGE_MS is not remembered.
export { RECENT_CHANGE_MS }
const cache = new Map<string, { stamp: string; answer: HistorySecrets }>()

export function readHistorySecrets(gitDir: string, commonDir: string | null): HistorySecrets {
  const stamp = historyStamp(gitDir, commonDir ?? gitDir)
  const cached = cache.get(gitDir)
  if (stamp !== null && cached?.stamp === stamp) return cached.answer
  const answer = askGit(gitDir)
  // Only a complete listing is remembered; a failure is asked again next time.
  if (stamp !== null && 'paths' in answer) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
    cache.set(gitDir, { stamp, answer })
  }
  return answer
}

function askGit(gitDir: string): HistorySecrets {
  const git = findSystemGit()
  if (git === null)
    return { unknown: 'git is not installed in a system folder, so its history cannot be read' }
  // --missing=allow-any: in a partial clone a missing object would be fetched from the promisor
  // remote, which runs the repository's own remote.*.uploadpack or ssh command while we only judge.
  const args = [`--git-dir=${gitDir}`, 'rev-list', '--all', '--reflog', '--objects', '--missing=allow-any']
  const run = runGitToJudge(git, args, { timeoutMs: TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES })
  if (run.error) return { unknown: `git could not list the repository's history: ${run.error.message}` }
  // Fail closed: one bad ref makes rev-list --all die before it prints anything, while the command
  // judged (`git log -p` walks HEAD only) still prints the secret. An empty repository exits 0.
  if (run.status !== 0) {
    const why = run.signal ? `it was ended by ${run.signal}` : `exit ${run.status}`
    return { unknown: `git could not list the repository's history (${why})` }
  }
  const paths = new Set<string>()
  const named = new Set<string>()
  const unnamed = new Set<string>()
  const secret = new Map<string, string>()
  let kept = 0
  for (const line of run.stdout.toString('utf8').split('\n')) {
    if (line === '') continue
    const space = line.indexOf(' ')
    const id = space === -1 ? line : line.slice(0, space)
    const file = space === -1 ? '' : line.slice(space + 1)
    if (kept <= MAX_KEPT_OBJECTS) {
      kept += 1
      // "id " with no name: a root tree, or a blob or tree a ref points at directly.
      const bucket = space !== -1 && file === '' ? unnamed : named
      bucket.add(id)
    }
    if (file !== '' && isSecretFileName(path.basename(file))) {
      paths.add(file)
      secret.set(id, file)
    }
  }
  // rev-list names each object once, by the first path it meets: a blob committed as `app.env`
  // and renamed `notes.md` is listed as notes.md only. Every change of every commit names each
  // blob under each of its paths (a red-team finding: `git log -p --follow -- notes.md`).
  const changes = runGitToJudge(
    git,
    [
      `--git-dir=${gitDir}`,
      'log',
      '--all',
      '--reflog',
      '--raw',
      '--no-renames',
      '--no-abbrev',
      '--format=',
      '--no-textconv',
      '--no-ext-diff',
    ],
    { timeoutMs: TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES },
  )
  if (changes.error || changes.status !== 0)
    return {
      unknown: `git could not list the names files had in the repository's history (${changes.error?.message ?? (changes.signal ? `it was ended by ${changes.signal}` : `exit ${changes.status}`)})`,
    }
  for (const line of changes.stdout.toString('utf8').split('\n')) {
    // `:100644 100644 <old id> <new id> M\tpath`
    const tab = line.indexOf('\t')
    if (!line.startsWith(':') || tab === -1) continue
    const file = line.slice(tab + 1)
    if (!isSecretFileName(path.basename(file))) continue
    paths.add(file)
    const [, , before, after] = line.slice(1, tab).split(' ')
    for (const id of [before, after]) if (id !== undefined && !/^0+$/.test(id)) secret.set(id, file)
  }
  const objects = kept > MAX_KEPT_OBJECTS ? null : { named, unnamed, secret }
  return { paths: [...paths].sort(), objects }
}

/** null when the layout cannot be stamped (too many folders, or just changed): git is asked again. */
function historyStamp(gitDir: string, commonDir: string): string | null {
  const parts: string[] = []
  let latest = 0
  const stampOf = (file: string) => {
    const stats = statSync(file, { throwIfNoEntry: false })
    if (stats) latest = Math.max(latest, stats.mtimeMs, stats.ctimeMs)
    parts.push(stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}` : '-')
  }
  for (const dir of new Set([gitDir, commonDir])) {
    for (const name of ['HEAD', 'packed-refs', path.join('objects', 'pack')]) stampOf(path.join(dir, name))
  }
  // refs in a reftable are rewritten in place by table files: no folder time to go by.
  if (statSync(path.join(commonDir, 'reftable'), { throwIfNoEntry: false })) return null
  // worktrees/: `--all --reflog` walks every linked worktree's HEAD and reflog too, and git moves a
  // HEAD by renaming a file into its worktree's folder.
  const pending = [
    path.join(commonDir, 'refs'),
    path.join(commonDir, 'logs'),
    path.join(commonDir, 'worktrees'),
    path.join(gitDir, 'logs'),
  ]
  let folders = 0
  while (pending.length > 0) {
    const dir = pending.pop() as string
    folders += 1
    if (folders > MAX_STAMPED_FOLDERS) return null
    stampOf(dir)
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) if (entry.isDirectory()) pending.push(path.join(dir, entry.name))
  }
  return Date.now() - latest > RECENT_CHANGE_MS ? parts.join('|') : null
}
