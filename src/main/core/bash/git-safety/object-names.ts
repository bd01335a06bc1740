import type { ReachableObjects } from './history-secrets'
import { findSystemGit, runGitToJudge } from './git-config-by-git'

/**
 * Objects named by id in a command that prints them (`git cat-file -p 16f45a0`, `git show <blob>`,
 * `git grep x <tree>`). The file name of what it prints is what the verdict judges, and git knows
 * one only for objects a ref, the stash or a reflog reaches: an unreachable blob (`git add .env`
 * then `git rm --cached .env`, a dropped stash) may be any file, so it asks.
 */
export type ObjectNamesJudged = { problem: string } | { secretPaths: string[] }

const FULL_ID_LENGTHS = new Set([40, 64])
const TIMEOUT_MS = 3_000
const MAX_OUTPUT_BYTES = 1024 * 1024

export function judgeObjectNames(
  gitDir: string,
  objects: ReachableObjects | null,
  names: readonly string[],
  label: string,
): ObjectNamesJudged {
  if (objects === null)
    return {
      problem: `${label} names an object by its id, and this repository holds too many objects to tell which file it is`,
    }
  const secretPaths: string[] = []
  for (const name of names) {
    const candidates = candidatesOf(gitDir, name)
    if ('problem' in candidates) return candidates
    for (const id of candidates.ids) {
      const secret = objects.secret.get(id)
      if (secret !== undefined) secretPaths.push(secret)
      else if (objects.unnamed.has(id) || !objects.named.has(id))
        return {
          problem: `${label} prints object ${name}, which no branch, tag, stash or reflog reaches under a file name, so which file it holds is unknown`,
        }
    }
  }
  return { secretPaths }
}

/**
 * Every object an abbreviated id may mean. git picks one of them by the command's context (a
 * commit for `log`, any type for `cat-file`), so each must be judged; a full id means itself.
 */
function candidatesOf(gitDir: string, name: string): { ids: string[] } | { problem: string } {
  if (FULL_ID_LENGTHS.has(name.length)) return { ids: [name] }
  const git = findSystemGit()
  if (git === null)
    return { problem: 'git is not installed in a system folder, so an object id cannot be read' }
  const args = [`--git-dir=${gitDir}`, 'rev-parse', `--disambiguate=${name}`]
  const run = runGitToJudge(git, args, { timeoutMs: TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES })
  if (run.error || run.status !== 0) return { problem: `git could not tell which objects ${name} names` }
  return {
    ids: run.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== ''),
  }
}
