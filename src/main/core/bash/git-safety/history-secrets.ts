import { type Dirent, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { isSecretFileName } from '../../secrets/secret-file-names'
import { findSystemGit, runGitToJudge } from './git-config-by-git'

/**
 * Secret-named files anywhere in the repository's history: `git log -p`, `git show REV` and
 * `git grep x REV` print a `.env` that was committed and later deleted, which today's tree and
 * index no longer hold. Read by git itself (`rev-list --all --reflog --objects`: every path of
 * every tree reachable from a ref, the stash or a reflog entry, merges included) and cached by
 * the identity of what decides reachability: HEAD, packed-refs, every folder under refs/, logs/
 * and worktrees/ (a ref is written by renaming a file into its folder), and the pack folder.
 */
export type HistorySecrets = { paths: string[] } | { unknown: string }

const TIMEOUT_MS = 3_000
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024
const MAX_STAMPED_FOLDERS = 512
const MAX_CACHED = 32
// A file system stamps times at its clock's granularity: a ref moved in the same tick as the last
// change could keep the folder's times, so a layout changed this recently is not remembered.
export const RECENT_CHANGE_MS = 2_000
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
  for (const line of run.stdout.toString('utf8').split('\n')) {
    const space = line.indexOf(' ')
    if (space === -1) continue
    const file = line.slice(space + 1)
    if (isSecretFileName(path.basename(file))) paths.add(file)
  }
  return { paths: [...paths].sort() }
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
