import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { approved, hostGit, realRepository } from './git-sandbox-fixture'
import { type SandboxWorld, sandboxWorlds } from './sandbox-fixture'

/**
 * The fourth sandbox review's classes, each as the reviewer ran it: an approved command in real
 * bwrap plants something, then the person's own git, outside, must run nothing planted.
 */
const world = sandboxWorlds()

/** Runs the person's git; a failure is fine (the plant is gone), what matters is what ran. */
function personRuns(w: SandboxWorld, cwd: string, ...args: string[]): void {
  try {
    hostGit(w, cwd, ...args)
  } catch {
    // git may stop: there is nothing there any more.
  }
}

const EVIL = (marker: string) => `printf '#!/bin/sh\\ntouch ${marker}\\n' > evil && chmod +x evil`

describe('state git obeys when the person continues', () => {
  it('a rebase whose strategy names a path: moved aside, git rebase --continue runs nothing', async () => {
    const w = world()
    realRepository(w)
    hostGit(w, w.workspace, 'commit', '-q', '--allow-empty', '-m', 'three')
    const marker = join(w.root, 'strategy-ran')
    const { notes } = await approved(
      w,
      [
        `GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -q -i HEAD~2`,
        "echo 'x/../evil' > .git/rebase-merge/strategy && mkdir git-merge-x",
        EVIL(marker),
      ].join('; '),
    )
    expect(notes.join('\n')).toMatch(/moved \.git\/rebase-merge aside .*merge strategy "x\/\.\.\/evil"/)
    personRuns(w, w.workspace, 'rebase', '--continue')
    expect(existsSync(marker)).toBe(false)
  })

  it('a cherry-pick whose sequencer opts name a strategy: moved aside', async () => {
    const w = world()
    realRepository(w)
    const { notes } = await approved(
      w,
      'mkdir -p .git/sequencer && git config -f .git/sequencer/opts options.strategy x/../evil && echo planted',
    )
    expect(notes.join('\n')).toMatch(/moved \.git\/sequencer aside .*merge strategy/)
  })

  it('a to-do list padded past what Shellgate reads is moved aside, not passed unread', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'exec-ran')
    const { notes } = await approved(
      w,
      `GIT_SEQUENCE_EDITOR="sed -i '1i break\\nexec touch ${marker}'" git rebase -q -i HEAD~1; yes '# padding padding padding padding' | head -c 1300000 >> .git/rebase-merge/git-rebase-todo; echo stopped`,
    )
    expect(notes.join('\n')).toMatch(/moved \.git\/rebase-merge aside/)
    personRuns(w, w.workspace, 'rebase', '--continue')
    expect(existsSync(marker)).toBe(false)
  })

  it("a rebase with one of git's own strategies is left alone", async () => {
    const w = world()
    realRepository(w)
    hostGit(w, w.workspace, 'commit', '-q', '--allow-empty', '-m', 'three')
    const { notes } = await approved(
      w,
      `GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -q -s ort -i HEAD~2; echo stopped`,
    )
    expect(notes).toEqual([])
    expect(existsSync(join(w.workspace, '.git', 'rebase-merge'))).toBe(true)
  })
})

describe('repositories git finds that are not named .git', () => {
  it.each([
    [
      'a bare layout in a subfolder, with a work tree',
      (m: string) =>
        `cd src && git init -q --bare . && git config core.bare false && git config core.worktree .. && git config core.fsmonitor "touch ${m}; false"`,
      'src',
    ],
    [
      "a bare layout at the root, the workspace's .git HEAD broken",
      (m: string) =>
        [
          'ln -s .git/objects objects && ln -s .git/refs refs && ln -s .git/index index && cp .git/HEAD HEAD && echo garbage > .git/HEAD',
          `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "touch ${m}; false"\\n' > config`,
        ].join(' && '),
      '.',
    ],
  ])('%s: its HEAD moved aside, git status runs nothing', async (_, plant, where) => {
    const w = world()
    realRepository(w)
    writeFileSync(join(w.workspace, 'README'), 'x\n')
    await approved(w, 'mkdir -p src && echo made')
    const marker = join(w.root, 'bare-ran')
    const { notes } = await approved(w, `${plant(marker)}; echo planted`)
    expect(notes.join('\n')).toMatch(/moved .*HEAD aside/)
    personRuns(w, join(w.workspace, where), 'status', '--short')
    expect(existsSync(marker)).toBe(false)
  })

  it('a bare repository the person keeps in the workspace is theirs: sealed, and never moved', async () => {
    const w = world()
    realRepository(w)
    hostGit(w, w.workspace, 'init', '-q', '--bare', 'fixture.git')
    const { result, notes } = await approved(w, 'echo "touch x" > fixture.git/hooks/post-receive; echo ran')
    expect(result.stderr).toContain('Read-only file system')
    expect(notes).toEqual([])
    expect(existsSync(join(w.workspace, 'fixture.git', 'HEAD'))).toBe(true)
  })
})

describe('a second work tree on a sealed git dir', () => {
  it.each([
    ['a gitfile', "printf 'gitdir: ../.git\\n' > sub/.git"],
    ['a symlink', 'ln -s ../.git sub/.git'],
  ])(
    "%s to the workspace's git dir: moved aside, the config's relative filter never runs there",
    async (_, link) => {
      const w = world()
      realRepository(w)
      writeFileSync(join(w.workspace, 'clean.sh'), '#!/bin/sh\ncat\n', { mode: 0o755 })
      writeFileSync(join(w.workspace, '.gitattributes'), '*.txt filter=tidy\n')
      hostGit(w, w.workspace, 'config', 'filter.tidy.clean', 'sh clean.sh')
      const marker = join(w.root, 'filter-ran')
      const { notes } = await approved(
        w,
        [
          'mkdir -p sub',
          link,
          `printf '#!/bin/sh\\ntouch ${marker}\\ncat\\n' > sub/clean.sh`,
          'cp .gitattributes sub/ && echo notes > sub/notes.txt',
          'git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub',
          'echo planted',
        ].join(' && '),
      )
      expect(notes.join('\n')).toMatch(/moved sub\/\.git aside .*second work tree/)
      personRuns(w, w.workspace, 'status')
      personRuns(w, join(w.workspace, 'sub'), 'add', 'notes.txt')
      expect(existsSync(marker)).toBe(false)
    },
  )
})

describe('more the audit now follows', () => {
  it("a planted repository that uses the person's own ~/.gitconfig hooks folder is moved aside", async () => {
    const w = world()
    realRepository(w)
    writeFileSync(join(w.home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n')
    const marker = join(w.root, 'hook-ran')
    const { notes } = await approved(
      w,
      [
        'mkdir inner && cd inner && git init -q && mkdir .githooks',
        `printf '#!/bin/sh\\ntouch ${marker}\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
        'echo planted',
      ].join(' && '),
    )
    expect(notes.join('\n')).toMatch(/moved inner\/\.git aside .*core\.hooksPath/)
    personRuns(w, join(w.workspace, 'inner'), 'commit', '-q', '--allow-empty', '-m', 'x')
    expect(existsSync(marker)).toBe(false)
  })

  it("a harmless planted repository's own gitlinked submodule is audited too", async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'nested-ran')
    const { notes } = await approved(
      w,
      [
        // Past the scan's cap of folders, only what an index records is looked at.
        'mkdir bulk && (cd bulk && seq 1 20010 | xargs mkdir)',
        'mkdir -p zz/a && cd zz/a && git init -q && git commit -q --allow-empty -m x',
        'git init -q b && git -C b commit -q --allow-empty -m x',
        `git -C b config core.fsmonitor "touch ${marker}; false"`,
        'git add b 2>/dev/null; cd ../.. && git add zz/a && echo planted',
      ].join(' && '),
    )
    expect(notes.join('\n')).toMatch(/moved zz\/a\/b\/\.git aside/)
    personRuns(w, w.workspace, 'status', '--short')
    expect(existsSync(marker)).toBe(false)
  })

  it('a plant moved aside and put back by a later run is moved aside again', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'back-ran')
    const first = await approved(
      w,
      `mkdir p && cd p && git init -q && git config core.fsmonitor "touch ${marker}; false" && echo planted`,
    )
    expect(first.notes.join('\n')).toMatch(/moved p\/\.git aside/)
    const aside = readdirSync(join(w.workspace, 'p')).find((name) => name.startsWith('.git.quarantined'))
    // The second run puts it back; its own baseline (taken after the move) must not launder it.
    const second = await approved(w, `mv p/${aside} p/.git && echo back`)
    expect(second.notes.join('\n')).toMatch(/moved p\/\.git aside .*put it back/)
  })

  it('rerere switched on by a planted rr-cache, and a legacy remotes file: moved aside', async () => {
    const w = world()
    realRepository(w)
    const { notes } = await approved(
      w,
      `mkdir .git/rr-cache .git/remotes && printf 'URL: ${w.outside}\\n' > .git/remotes/upstream && echo planted`,
    )
    const said = notes.join('\n')
    expect(said).toMatch(/moved \.git\/rr-cache aside .*rerere/)
    expect(said).toMatch(/moved \.git\/remotes aside/)
    expect(existsSync(join(w.workspace, '.git', 'rr-cache'))).toBe(false)
  })

  it('replace refs made by the command are said', async () => {
    const w = world()
    realRepository(w)
    const { notes } = await approved(w, 'git replace -f HEAD HEAD~1 && echo replaced')
    expect(notes.join('\n')).toMatch(/replace refs .*git replace -l/)
  })

  it("a linked worktree's config.worktree that did not exist cannot be planted", async () => {
    const w = world()
    realRepository(w)
    // Outside the workspace: the scan never meets its .git file.
    hostGit(w, w.workspace, 'worktree', 'add', '-q', join(w.root, 'linked'), '-b', 'side')
    hostGit(w, w.workspace, 'config', 'extensions.worktreeConfig', 'true')
    const marker = join(w.root, 'wt-ran')
    const { result } = await approved(
      w,
      `git config -f .git/worktrees/linked/config.worktree core.fsmonitor "touch ${marker}; false"; echo rc=$?`,
    )
    expect(result.stdout, result.stderr).toMatch(/rc=[1-9]/)
    expect(readFileSync(join(w.workspace, '.git', 'worktrees', 'linked', 'config.worktree'), 'utf8')).toBe('')
    personRuns(w, join(w.root, 'linked'), 'status', '--short')
    expect(existsSync(marker)).toBe(false)
  })

  it('a hook a config names, staged anew through the index, is said before git checkout writes it', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'staged-ran')
    hostGit(w, w.workspace, 'config', 'core.hooksPath', '.husky')
    const { notes } = await approved(
      w,
      [
        `B=$(printf '#!/bin/sh\\ntouch ${marker}\\n' | git hash-object -w --stdin)`,
        'git update-index --add --cacheinfo 100755,$B,.husky/post-checkout',
        'echo staged',
      ].join(' && '),
    )
    expect(notes.join('\n')).toMatch(/staged new contents for \.husky\/post-checkout .*git diff --cached/)
  })

  it('entries marked skip-worktree by the command are said', async () => {
    const w = world()
    realRepository(w)
    const { notes } = await approved(
      w,
      'echo changed >> file && git update-index --skip-worktree file && echo hidden',
    )
    expect(hostGit(w, w.workspace, 'status', '--short')).not.toMatch(/ file\n/)
    expect(notes.join('\n')).toMatch(/marked file in \. skip-worktree or assume-unchanged/)
  })
})
