import { join } from 'node:path'
import { parseGitConfig } from '../secrets/git-config-text'
import { kindOf, readText, safeReaddir } from './host-paths'

/**
 * The state a stopped rebase, cherry-pick or revert leaves in a git dir, which git obeys when the
 * person continues (`git rebase --continue`, `git cherry-pick --continue`; `git status` tells them
 * to): to-do lists, whose `exec` lines run a shell command, and the merge strategy, which git runs
 * as `git-merge-<name>`, from the work tree when the name holds a slash (`x/../evil` ran `./evil`,
 * fourth sandbox review). All of it is writable under workspace-write, as git work needs.
 */
const STATE_FILES = [
  join('rebase-merge', 'git-rebase-todo'),
  join('sequencer', 'todo'),
  join('rebase-merge', 'strategy'),
  join('sequencer', 'opts'),
]
const EXEC_LINE = /^\s*(?:x|exec)\s/m
const BUILTIN_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree'])

/** Each state file as it was: its text, null when absent, 'unreadable' (too large, not a file). */
export type StateSnapshot = Map<string, string | null>
const UNREADABLE = '\0unreadable'

/** The state files of these git dirs and of every linked worktree's git dir in them. */
export function sequencerState(gitDirs: readonly string[]): StateSnapshot {
  const dirs = gitDirs.flatMap((dir) => [
    dir,
    ...safeReaddir(join(dir, 'worktrees')).map((name) => join(dir, 'worktrees', name)),
  ])
  return new Map(dirs.flatMap((dir) => STATE_FILES.map((file) => [join(dir, file), textOf(join(dir, file))])))
}

/** Why a state file, as it is now, would make git run what the command chose; null when it would not. */
export function stateDanger(file: string, before: string | null): string | null {
  const now = textOf(file)
  if (now === null || now === before) return null
  if (now === UNREADABLE) return 'git would obey its state, which is too large or odd for Shellgate to check'
  if (file.endsWith('todo')) {
    const execs = (text: string | null) =>
      (text ?? '').split('\n').filter((line) => EXEC_LINE.test(`${line}\n`))
    const added = execs(now).filter((line) => !execs(before).includes(line))
    return added.length > 0 ? 'its to-do list runs a command when you continue' : null
  }
  const strategies = file.endsWith('opts')
    ? parseGitConfig(now)
        .entries.filter((entry) => entry.name.toLowerCase() === 'options.strategy')
        .map((entry) => entry.value.trim())
    : [now.trim()]
  const odd = strategies.find((name) => name !== '' && !BUILTIN_STRATEGIES.has(name))
  return odd === undefined
    ? null
    : `it names the merge strategy "${odd}", a program git runs when you continue`
}

function textOf(file: string): string | null {
  if (kindOf(file) === null) return null
  return readText(file) ?? UNREADABLE
}
