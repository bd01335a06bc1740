import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Write a `.git` directory by hand: HEAD, objects/, refs/ and an optional config, as git init would. */
export function writeGitDir(gitDir: string, config = ''): string {
  mkdirSync(join(gitDir, 'objects'), { recursive: true })
  mkdirSync(join(gitDir, 'refs', 'heads'), { recursive: true })
  writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n')
  writeFileSync(join(gitDir, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`)
  return gitDir
}

/** A checkout at `root` whose `.git` directory carries `config` appended to a normal one. */
export function writeRepository(root: string, config = ''): string {
  mkdirSync(root, { recursive: true })
  writeGitDir(join(root, '.git'), config)
  return root
}

/** A worktree-style checkout: `.git` is a `gitdir:` file pointing into `<main>/.git/worktrees/<name>`. */
export function writeLinkedWorktree(main: string, worktree: string, name = 'wt'): string {
  const gitDir = join(main, '.git', 'worktrees', name)
  mkdirSync(join(gitDir, 'refs'), { recursive: true })
  writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/wt\n')
  writeFileSync(join(gitDir, 'commondir'), '../..\n')
  mkdirSync(worktree, { recursive: true })
  writeFileSync(join(worktree, '.git'), `gitdir: ${gitDir}\n`)
  return worktree
}

export function writeSymlinkedGit(root: string, target: string): string {
  mkdirSync(root, { recursive: true })
  symlinkSync(target, join(root, '.git'))
  return root
}
