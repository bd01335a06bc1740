import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { approved, hostGit, realRepository, runPrepared } from './git-sandbox-fixture'
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

/** Waits for a condition another process makes true (a file the sandboxed command writes). */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
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

  it('sequencer opts (a stopped cherry-pick or revert) that name a strategy: moved aside', async () => {
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

  it('a plant moved aside and put back by an overlapping run (its baseline taken before the move) is moved aside again', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'back-ran')
    const service = w.service()
    const run = (prepared: Awaited<ReturnType<typeof service.prepare>>, command: string) =>
      runPrepared(w, prepared, command)
    const first = await service.prepare(w.prepareInput('workspace-write'))
    await run(first, `mkdir p && cd p && git init -q && git config core.fsmonitor "touch ${marker}; false"`)
    // The second run starts, and is running, while the first has not been checked yet: its
    // baseline holds the plant, and its mounts were made before the move.
    const second = await service.prepare(w.prepareInput('workspace-write'))
    if (first.kind !== 'run' || second.kind !== 'run') throw new Error('not prepared')
    const back = run(
      second,
      'touch started; while [ ! -e go ]; do sleep 0.02; done; mv p/.git.quarantined-by-shellgate-* p/.git && echo back',
    )
    await until(() => existsSync(join(w.workspace, 'started')))
    expect(first.settle().join('\n')).toMatch(/moved p\/\.git aside/)
    await first.release()
    writeFileSync(join(w.workspace, 'go'), '')
    const result = await back
    expect(result.stdout, result.stderr).toBe('back\n')
    expect(second.settle().join('\n')).toMatch(/moved p\/\.git aside .*core\.fsmonitor/)
    await second.release()
    personRuns(w, join(w.workspace, 'p'), 'status', '--short')
    expect(existsSync(marker)).toBe(false)
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

describe('the fifth sandbox review', () => {
  it.each([
    [
      'objects and refs as executable files (git asks only that they can be entered)',
      (m: string) =>
        `printf 'ref: refs/heads/main\\n' > src/HEAD && : > src/objects && : > src/refs && chmod +x src/objects src/refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tworktree = ..\\n\\tfsmonitor = "touch ${m}; false"\\n' > src/config`,
    ],
    [
      'a HEAD and a commondir alone',
      (m: string) =>
        [
          'mkdir -p .cd/info && ln -s ../.git/objects .cd/objects && ln -s ../.git/refs .cd/refs',
          `git config -f .cd/config diff.x.textconv "touch ${m}; cat" && echo '* diff=x' > .cd/info/attributes`,
          "printf 'ref: refs/heads/main\\n' > src/HEAD && echo ../.cd > src/commondir",
        ].join(' && '),
    ],
  ])('a bare-shaped folder from %s: its HEAD moved aside', async (_, plant) => {
    const w = world()
    realRepository(w)
    await approved(w, 'mkdir -p src/lib && echo made')
    const marker = join(w.root, 'bare-ran')
    const { notes } = await approved(w, `${plant(marker)}; echo planted`)
    expect(notes.join('\n')).toMatch(/moved src\/HEAD aside/)
    personRuns(w, join(w.workspace, 'src', 'lib'), 'status', '--short')
    personRuns(w, join(w.workspace, 'src', 'lib'), 'log', '-p', '-1')
    expect(existsSync(marker)).toBe(false)
  })

  it.each([
    [
      'core.hooksPath',
      '.git/my-hooks',
      'mkdir -p .git/my-hooks && printf "#!/bin/sh\\ntouch M\\n" > .git/my-hooks/pre-commit && chmod +x .git/my-hooks/pre-commit',
    ],
    [
      'include.path',
      'extra.config',
      `printf '[core]\\n\\tfsmonitor = "touch M; false"\\n' > .git/extra.config`,
    ],
  ])('%s = %s, inside .git: nothing planted there runs', async (key, value, plant) => {
    const w = world()
    realRepository(w)
    hostGit(w, w.workspace, 'config', key, value)
    const marker = join(w.root, 'in-git-ran')
    await approved(w, `${plant.replaceAll('M', marker)}; echo x > file.txt; echo ran`)
    personRuns(w, w.workspace, 'status', '--short')
    personRuns(w, w.workspace, 'add', 'file.txt')
    personRuns(w, w.workspace, 'commit', '-qm', 'after')
    expect(existsSync(marker)).toBe(false)
  })

  it('a gitlink through a link to another repository: Shellgate never renames what lies outside', async () => {
    const w = world()
    realRepository(w)
    const other = join(w.outside, 'other')
    hostGit(w, w.outside, 'init', '-q', other)
    hostGit(w, other, 'config', 'core.fsmonitor', 'true')
    const { notes } = await approved(
      w,
      `ln -s ${other} lnk && git update-index --add --cacheinfo "160000,$(git rev-parse HEAD),lnk" && echo linked`,
    )
    expect(existsSync(join(other, '.git', 'HEAD'))).toBe(true)
    expect(notes.join('\n')).toMatch(
      /lnk\/\.git lead out of the workspace, to .*other\/\.git.*did not touch it/,
    )
  })

  it.each([
    [
      'a gitlink under a file (ENOTDIR)',
      'echo x > a && git update-index --add --cacheinfo "160000,$(git rev-parse HEAD),a/b"',
    ],
    [
      'a gitlink through a link to itself',
      'ln -s . self && git update-index --add --cacheinfo "160000,$(git rev-parse HEAD),self"',
    ],
  ])('%s does not silence the audit: a planted repository after it is still moved aside', async (_, odd) => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'after-ran')
    const { notes } = await approved(
      w,
      [
        odd,
        `mkdir -p p/q && (cd p/q && git init -q && git commit -q --allow-empty -m x && git config core.fsmonitor "touch ${marker}; false")`,
        'git update-index --add --cacheinfo "160000,$(git -C p/q rev-parse HEAD),p/q"',
        'echo planted',
      ].join(' && '),
    )
    expect(notes.join('\n')).toMatch(/moved p\/q\/\.git aside/)
    personRuns(w, w.workspace, 'status', '--short')
    expect(existsSync(marker)).toBe(false)
  })
})
