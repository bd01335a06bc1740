import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createExecutionPort } from '../../../../src/main/core/exec'
import { approved, hostGit, realRepository, runPrepared } from './git-sandbox-fixture'
import { type SandboxWorld, sandboxWorlds } from './sandbox-fixture'

/**
 * Issue 19.2 in real bwrap with real git: ordinary git work inside workspace-write, the sealed
 * parts of every git dir, and the plants that would make the person's own git run a program later,
 * checked with the person's real `git status` outside the sandbox afterwards.
 */
const _port = createExecutionPort()
const world = sandboxWorlds()

describe('ordinary git work inside workspace-write', () => {
  it('git commit, git checkout -b, git stash (and pop), git submodule update on an existing submodule', async () => {
    const w = world()
    realRepository(w)
    const { result, notes } = await approved(
      w,
      [
        'echo second >> file && git commit -qm second file && echo commit ok',
        'git checkout -qb feature && echo branch ok',
        'echo third >> file && git stash -q && git stash pop -q && echo stash ok',
        'git submodule update -q 2>&1 && echo submodule ok',
        'git -C lib log -1 --format=%s',
      ].join('; '),
    )
    expect(result.stdout).toBe('commit ok\nbranch ok\nstash ok\nsubmodule ok\ntwo\n')
    // git rewrote the submodule's core.worktree with the same value: nothing to put back.
    expect(notes).toEqual([])
    expect(hostGit(w, w.workspace, 'log', '-1', '--format=%s')).toBe('second\n')
    expect(hostGit(w, w.workspace, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature\n')
  })
})

describe('what git would run later stays read-only', () => {
  it("config, config.worktree, hooks/, info/, modules/ and a submodule's hooks; missing ones are made to exist first", async () => {
    const w = world()
    realRepository(w)
    const dotGit = join(w.workspace, '.git')
    rmSync(join(dotGit, 'info'), { recursive: true, force: true })
    const config = readFileSync(join(dotGit, 'config'), 'utf8')
    const { result } = await approved(
      w,
      [
        'git config core.fsmonitor "touch planted"',
        'echo evil > .git/config.worktree',
        'echo evil > .git/hooks/pre-commit',
        'mkdir -p .git/info && echo "* filter=evil" > .git/info/attributes',
        'mkdir .git/modules/evil',
        'echo evil > .git/modules/lib/hooks/post-checkout',
        'mkdir -p .git/worktrees/evil',
        'mv .git/hooks .git/hooks-aside',
        'true',
      ].join('; '),
    )
    expect(readFileSync(join(dotGit, 'config'), 'utf8')).toBe(config)
    expect(readFileSync(join(dotGit, 'config.worktree'), 'utf8')).toBe('')
    expect(readdirSync(join(dotGit, 'info'))).toEqual([])
    expect(readdirSync(join(dotGit, 'modules'))).toEqual(['lib'])
    expect(readdirSync(join(dotGit, 'worktrees'))).toEqual([])
    expect(existsSync(join(dotGit, 'hooks', 'pre-commit'))).toBe(false)
    expect(existsSync(join(dotGit, 'modules', 'lib', 'hooks', 'post-checkout'))).toBe(false)
    expect(result.stderr).toContain('Read-only file system')
    expect(result.stderr).toMatch(/hooks.*(Device or resource busy|Read-only file system)/)
  })

  it(".git/modules/lib/config: a planted core.fsmonitor is put back after the run, and the person's git status runs nothing", async () => {
    const w = world()
    realRepository(w)
    const config = join(w.workspace, '.git', 'modules', 'lib', 'config')
    const before = readFileSync(config, 'utf8')
    const marker = join(w.root, 'fsmonitor-ran')
    const { notes } = await approved(w, `git -C lib config core.fsmonitor "touch ${marker}; false"`)
    expect(notes).toEqual([
      expect.stringMatching(/^Shellgate put \.git\/modules\/lib\/config back as it was/),
    ])
    expect(readFileSync(config, 'utf8')).toBe(before)
    hostGit(w, w.workspace, 'status', '--short')
    expect(existsSync(marker)).toBe(false)
  })

  it("issue 19's plant: a sub-repository with core.fsmonitor and a gitlink in .git/index; the person's real git status afterwards runs nothing", async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'plant-ran')
    const plant = [
      // The first try: .git/modules/lib is sealed, so that fails...
      'mkdir -p .git/modules/planted 2>&1',
      // ...so the sub-repository gets its git dir in the working tree instead, and a gitlink.
      'mkdir planted && cd planted && git init -q && git commit -q --allow-empty -m x',
      `git config core.fsmonitor "touch ${marker}; false"`,
      'cd .. && git update-index --add --cacheinfo "160000,$(git -C planted rev-parse HEAD),planted"',
      'echo planted',
    ].join('; ')
    const { result, notes } = await approved(w, plant)
    expect(result.stdout).toContain('Read-only file system')
    expect(result.stdout).toContain('planted\n')
    // The plant is real: a copy of the workspace as the command left it runs it on `git status`.
    const control = join(w.root, 'control')
    cpSync(w.workspace, control, { recursive: true })
    const aside = readdirSync(join(control, 'planted')).find((name) => name.startsWith('.git.quarantined'))
    rmSync(join(control, 'planted', '.git'), { recursive: true, force: true })
    cpSync(join(control, 'planted', aside!), join(control, 'planted', '.git'), { recursive: true })
    hostGit(w, control, 'status', '--short')
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)
    // In the workspace itself it was moved aside, and said.
    expect(notes).toEqual([
      expect.stringMatching(
        /^Shellgate moved planted\/\.git aside to planted\/\.git\.quarantined-by-shellgate-\d+: .*sets core\.fsmonitor/,
      ),
    ])
    hostGit(w, w.workspace, 'status', '--short')
    expect(existsSync(marker)).toBe(false)
  })

  it('a planted commondir (git would read config and hooks from where it points) is moved aside', async () => {
    const w = world()
    realRepository(w)
    const { notes } = await approved(
      w,
      'cp -r .git ../evil 2>/dev/null; echo "$PWD/../evil" > .git/commondir',
    )
    expect(notes).toEqual([expect.stringMatching(/^Shellgate moved \.git\/commondir aside/)])
    expect(existsSync(join(w.workspace, '.git', 'commondir'))).toBe(false)
  })

  it('a new repository with only what git init writes is left alone', async () => {
    const w = world()
    realRepository(w)
    const { notes } = await approved(w, 'git init -q fresh && git -C fresh commit -q --allow-empty -m x')
    expect(notes).toEqual([])
    expect(lstatSync(join(w.workspace, 'fresh', '.git')).isDirectory()).toBe(true)
  })

  it('a symlinked .git/hooks makes the whole .git read-only: the link cannot be swapped for a folder of hooks', async () => {
    const w = world()
    realRepository(w)
    const target = join(w.root, 'hooks-target')
    mkdirSync(target)
    rmSync(join(w.workspace, '.git', 'hooks'), { recursive: true })
    symlinkSync(target, join(w.workspace, '.git', 'hooks'))
    await approved(w, 'rm .git/hooks; mkdir .git/hooks; echo evil > .git/hooks/pre-commit; true')
    expect(lstatSync(join(w.workspace, '.git', 'hooks')).isSymbolicLink()).toBe(true)
    expect(readdirSync(target)).toEqual([])
  })

  it("a linked worktree as the workspace: commits work, its git dir and the common dir's config stay sealed", async () => {
    const w = world()
    realRepository(w)
    const main = w.workspace
    const linked = join(w.root, 'linked')
    hostGit(w, main, 'worktree', 'add', '-q', linked, '-b', 'side')
    const config = readFileSync(join(main, '.git', 'config'), 'utf8')
    const prepared = await w
      .service()
      .prepare({ ...w.prepareInput('workspace-write'), workspace: linked, cwd: linked })
    if (prepared.kind !== 'run') throw new Error('not prepared')
    const result = await runPrepared(
      w,
      prepared,
      'echo x >> file && git commit -qam in-linked && echo ok; git config core.fsmonitor x; echo rc=$?',
      linked,
    )
    await prepared.release()
    expect(result.stdout).toBe('ok\nrc=4\n')
    expect(hostGit(w, linked, 'log', '-1', '--format=%s')).toBe('in-linked\n')
    expect(readFileSync(join(main, '.git', 'config'), 'utf8')).toBe(config)
  })

  it('a .git file that points at a folder which does not lead back is not mounted: no read, no write there', async () => {
    const w = world()
    realRepository(w)
    // What an earlier approved command could leave: the repository moved aside, a .git file
    // naming the home folder (or any other) in its place.
    const elsewhere = join(w.root, 'elsewhere')
    mkdirSync(elsewhere)
    writeFileSync(join(elsewhere, 'notes.txt'), 'ELSEWHERE-SECRET-71c\n')
    writeFileSync(join(elsewhere, '.bashrc'), 'original\n')
    execFileSync('mv', [join(w.workspace, '.git'), join(w.workspace, '.git-real')])
    writeFileSync(join(w.workspace, '.git'), `gitdir: ${elsewhere}\n`)
    const { result } = await approved(
      w,
      `cat ${elsewhere}/notes.txt; echo PWNED >> ${elsewhere}/.bashrc; ls ${elsewhere}/hooks; true`,
    )
    expect(result.stdout).not.toContain('ELSEWHERE-SECRET')
    expect(readFileSync(join(elsewhere, '.bashrc'), 'utf8')).toBe('original\n')
    // Nothing was made there either (the seal creates hooks/ and info/ only in git dirs it mounts).
    expect(readdirSync(elsewhere).sort()).toEqual(['.bashrc', 'notes.txt'])
    const layout = w.service().explain({ ...w.prepareInput('read-only'), profile: 'read-only' })
    expect(JSON.stringify(layout.leftOut)).toContain('does not lead back')
  })

  /** An approved command plants (given the marker path); the audit moves it aside and git status runs nothing. */
  async function expectPlantMovedAside(plant: (marker: string) => string): Promise<void> {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'plant-ran')
    const { result, notes } = await approved(w, `${plant(marker)} && echo planted`)
    expect(result.stdout, result.stderr).toContain('planted')
    expect(notes.join('\n')).toMatch(/Shellgate moved .* aside/)
    expect(plantRan(w, marker)).toBe(false)
  }

  /** The person's git status after the run: whether the planted fsmonitor ran (the marker exists). */
  function plantRan(w: SandboxWorld, marker: string): boolean {
    try {
      hostGit(w, w.workspace, 'status', '--short')
    } catch {
      // No repository left where the plant was: nothing ran.
    }
    return existsSync(marker)
  }

  it.each([
    [
      'the workspace .git replaced under its own name',
      (m: string) =>
        `mv .git .git-old && mkdir .git && cp -a .git-old/HEAD .git-old/objects .git-old/refs .git-old/index .git/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${m}; false"\\n' > .git/config`,
    ],
    [
      "a new git dir inside the sealed one's writable objects/, named by a new gitfile",
      (m: string) =>
        [
          'g=.git/objects/evil; mkdir -p $g/objects $g/refs/heads; echo "ref: refs/heads/main" > $g/HEAD',
          `printf '[core]\\n\\tbare = false\\n\\tfsmonitor = "touch ${m}; false"\\n' > $g/config`,
          'mkdir sub && echo "gitdir: ../.git/objects/evil" > sub/.git',
          'git update-index --add --cacheinfo "160000,$(git rev-parse HEAD),sub"',
        ].join(' && '),
    ],
    [
      'a symlinked .git',
      (m: string) =>
        [
          'git init -q --bare .cache-x && git --git-dir=.cache-x config core.bare false',
          `git --git-dir=.cache-x config core.fsmonitor "touch ${m}; false"`,
          'mkdir sub && ln -s ../.cache-x sub/.git && git -C sub commit -q --allow-empty -m x && git add sub',
        ].join(' && '),
    ],
    [
      'a gitlinked repository past the scan cap of folders',
      (m: string) =>
        [
          'mkdir bulk && (cd bulk && seq 1 20010 | xargs mkdir)',
          'mkdir -p zz/y && git init -q zz/y/sub',
          `git -C zz/y/sub config core.fsmonitor "touch ${m}; false"`,
          'git -C zz/y/sub commit -q --allow-empty -m x && git add zz/y/sub',
        ].join(' && '),
    ],
  ])(
    '%s (sandbox review): moved aside, and the person’s git status runs nothing',
    (_, plant) => expectPlantMovedAside(plant),
    60_000,
  )

  it("hooks and programs the repository's config keeps in the work tree (husky's core.hooksPath) stay read-only", async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'husky-ran')
    hostGit(w, w.workspace, 'config', 'core.hooksPath', '.husky')
    mkdirSync(join(w.workspace, 'tools'))
    writeFileSync(join(w.workspace, 'tools', 'clean.sh'), '#!/bin/sh\ncat\n', { mode: 0o755 })
    hostGit(w, w.workspace, 'config', 'filter.tidy.clean', 'tools/clean.sh --quiet')
    const { result } = await approved(
      w,
      [
        `printf '#!/bin/sh\\ntouch ${marker}\\n' > .husky/pre-commit; chmod +x .husky/pre-commit`,
        `echo 'touch ${marker}' >> tools/clean.sh`,
        'echo ordinary > file.txt && echo ok',
      ].join('; '),
    )
    expect(result.stdout).toContain('ok')
    expect(result.stderr).toContain('Read-only file system')
    expect(readFileSync(join(w.workspace, 'tools', 'clean.sh'), 'utf8')).toBe('#!/bin/sh\ncat\n')
    hostGit(w, w.workspace, 'add', 'file.txt')
    hostGit(w, w.workspace, 'commit', '-qm', 'after the run')
    expect(existsSync(marker)).toBe(false)
  })

  it.each([
    ['a script named without a slash', 'sh clean.sh', 'clean.sh', 'touch'],
    [
      'a quoted path with a space, after a cd',
      `cd . && sh "tools/my clean.sh"`,
      'tools/my clean.sh',
      'touch',
    ],
    // GNU sed's `e` runs a command line.
    ["a script after an option's =", 'sed --file=tools/clean.sed', 'tools/clean.sed', '1e touch'],
  ])(
    'a filter whose command line names %s (third sandbox review): the file stays read-only, git add runs nothing planted',
    async (_, command, script, runs) => {
      const w = world()
      realRepository(w)
      const marker = join(w.root, 'filter-ran')
      mkdirSync(join(w.workspace, 'tools'), { recursive: true })
      writeFileSync(join(w.workspace, script), '#!/bin/sh\ncat\n', { mode: 0o755 })
      writeFileSync(join(w.workspace, '.gitattributes'), '*.txt filter=tidy\n')
      hostGit(w, w.workspace, 'config', 'filter.tidy.clean', command)
      const { result } = await approved(
        w,
        `echo '${runs} ${marker}' >> '${script}'; echo x > file.txt; echo ran`,
      )
      expect(result.stdout).toContain('ran')
      expect(result.stderr).toContain('Read-only file system')
      expect(readFileSync(join(w.workspace, script), 'utf8')).toBe('#!/bin/sh\ncat\n')
      hostGit(w, w.workspace, 'add', 'file.txt')
      expect(existsSync(marker)).toBe(false)
    },
  )

  it('a program a filter names that does not exist yet is moved aside after the run: git add runs nothing', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'filter-ran')
    writeFileSync(join(w.workspace, '.gitattributes'), '*.txt filter=tidy\n')
    hostGit(w, w.workspace, 'config', 'filter.tidy.clean', 'sh tools/clean.sh')
    const { result, notes } = await approved(
      w,
      `mkdir tools && printf '#!/bin/sh\\ntouch ${marker}\\ncat\\n' > tools/clean.sh && echo x > file.txt && echo planted`,
    )
    expect(result.stdout).toContain('planted')
    expect(notes.join('\n')).toMatch(/moved tools\/clean\.sh aside .*filter\.tidy\.clean/)
    expect(existsSync(join(w.workspace, 'tools', 'clean.sh'))).toBe(false)
    try {
      hostGit(w, w.workspace, 'add', 'file.txt')
    } catch {
      // git may complain that the filter failed; what matters is what it ran.
    }
    expect(existsSync(marker)).toBe(false)
  })

  it("a hooks folder named by a config the person's ~/.gitconfig includes through ~/ stays read-only", async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'hook-ran')
    writeFileSync(join(w.home, 'work.gitconfig'), '[core]\n\thooksPath = .githooks\n')
    writeFileSync(join(w.home, '.gitconfig'), '[include]\n\tpath = ~/work.gitconfig\n')
    try {
      const { result } = await approved(
        w,
        `mkdir -p .githooks; printf '#!/bin/sh\\ntouch ${marker}\\n' > .githooks/pre-commit; chmod +x .githooks/pre-commit; echo x > file.txt; echo ran`,
      )
      expect(result.stdout).toContain('ran')
      hostGit(w, w.workspace, 'add', 'file.txt')
      hostGit(w, w.workspace, 'commit', '-qm', 'after')
      expect(existsSync(marker)).toBe(false)
    } finally {
      rmSync(join(w.home, '.gitconfig'), { force: true })
    }
  })

  it.each([
    [
      'a gitfile whose path ends in a space (git keeps it; a trimming reader looked elsewhere)',
      (m: string) =>
        [
          'mkdir planted && cd planted && git init -q && git commit -q --allow-empty -m x',
          `git config core.fsmonitor "touch ${m}; false"`,
          "mv .git 'p ' && printf 'gitdir: p \\n' > .git && cd ..",
          'git update-index --add --cacheinfo "160000,$(git -C planted rev-parse HEAD),planted"',
        ].join(' && '),
    ],
    [
      "the workspace's .git turned into a gitfile naming a copy with a planted config",
      (m: string) =>
        [
          "mv .git .git-real && cp -a .git-real 'gd ' && printf 'gitdir: gd \\n' > .git",
          `git config -f 'gd /config' core.fsmonitor "touch ${m}; false"`,
        ].join(' && '),
    ],
    [
      'a .git symlink to a gitfile',
      (m: string) =>
        [
          'mkdir planted && cd planted && git init -q && git commit -q --allow-empty -m x',
          `git config core.fsmonitor "touch ${m}; false"`,
          "mv .git gd && printf 'gitdir: gd\\n' > gf && ln -s gf .git && cd ..",
          'git update-index --add --cacheinfo "160000,$(git -C planted rev-parse HEAD),planted"',
        ].join(' && '),
    ],
  ])('%s (second sandbox review): moved aside, and git status runs nothing', (_, plant) =>
    expectPlantMovedAside(plant),
  )

  it('a rebase left stopped with an exec line in its to-do list is moved aside: git rebase --continue runs nothing', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'exec-ran')
    const { notes } = await approved(
      w,
      `GIT_SEQUENCE_EDITOR="sed -i '1i break\\nexec touch ${marker}'" git rebase -q -i HEAD~1; echo stopped`,
    )
    expect(notes.join('\n')).toMatch(/moved .*rebase-merge aside.*runs a command when you continue/)
    try {
      hostGit(w, w.workspace, 'rebase', '--continue')
    } catch {
      // No rebase in progress any more.
    }
    expect(existsSync(marker)).toBe(false)
  })

  it("objects/info/alternates is sealed: the person's git never reads another repository's objects", async () => {
    const w = world()
    realRepository(w)
    const { result } = await approved(
      w,
      `echo ${join(w.root, 'sub', '.git', 'objects')} > .git/objects/info/alternates; echo done`,
    )
    expect(result.stdout).toContain('done')
    expect(result.stderr).toContain('Read-only file system')
    expect(readFileSync(join(w.workspace, '.git', 'objects', 'info', 'alternates'), 'utf8')).toBe('')
  })

  it.each([
    [
      "husky 9's .husky/_, its parent renamed aside",
      '.husky/_',
      'mv .husky .husky-moved; mkdir -p .husky/_ && printf "#!/bin/sh\\ntouch M\\n" > .husky/_/pre-commit && chmod +x .husky/_/pre-commit',
    ],
    [
      'a hooks folder named in an included config',
      null,
      'mkdir -p .githooks && printf "#!/bin/sh\\ntouch M\\n" > .githooks/pre-commit && chmod +x .githooks/pre-commit',
    ],
  ])('%s (second sandbox review): git commit afterwards runs nothing', async (_, hooksPath, plant) => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'hook-ran')
    if (hooksPath) hostGit(w, w.workspace, 'config', 'core.hooksPath', hooksPath)
    else {
      writeFileSync(join(w.workspace, 'shared.gitconfig'), '[core]\n\thooksPath = .githooks\n')
      hostGit(w, w.workspace, 'config', 'include.path', '../shared.gitconfig')
    }
    await approved(w, `${plant.replaceAll('M', marker)}; echo x > file.txt`)
    hostGit(w, w.workspace, 'add', 'file.txt')
    hostGit(w, w.workspace, 'commit', '-qm', 'after')
    expect(existsSync(marker)).toBe(false)
  })

  it("a program config names inside .git (git's own fsmonitor-watchman setup) leaves git commit working", async () => {
    const w = world()
    realRepository(w)
    hostGit(w, w.workspace, 'config', 'core.fsmonitor', '.git/hooks/fsmonitor-watchman')
    hostGit(w, w.workspace, 'config', 'core.hooksPath', '.git/hooks')
    const { result } = await approved(
      w,
      'git -c core.fsmonitor= commit -q --allow-empty -m inside && echo committed',
    )
    expect(result.stdout, result.stderr).toContain('committed')
    expect(hostGit(w, w.workspace, 'log', '-1', '--format=%s')).toBe('inside\n')
  })

  it('a sealed git dir swapped behind a gitfile that did not change is judged afresh (code review)', async () => {
    const w = world()
    realRepository(w)
    const marker = join(w.root, 'swap-ran')
    // Run 1: a harmless repository whose git dir lives beside its gitfile, and its gitlink.
    await approved(
      w,
      [
        'mkdir x && git -C x init -q && git -C x commit -q --allow-empty -m x && mv x/.git x/gd',
        "printf 'gitdir: gd\\n' > x/.git",
        'git update-index --add --cacheinfo "160000,$(git -C x rev-parse HEAD),x"',
      ].join(' && '),
    )
    expect(existsSync(join(w.workspace, 'x', 'gd'))).toBe(true)
    // Run 2: the sealed x/gd renamed aside (only its children were mount points) and replaced.
    const { notes } = await approved(
      w,
      [
        'mv x/gd x/old && cp -a x/old x/gd',
        `git config -f x/gd/config core.fsmonitor "touch ${marker}; false"`,
      ].join(' && '),
    )
    expect(notes.join('\n')).toMatch(/moved x\/gd aside/)
    expect(plantRan(w, marker)).toBe(false)
  })

  it('a FIFO where a to-do list should be does not hang the audit', async () => {
    const w = world()
    realRepository(w)
    // A blocking open would never return here (no writer ever comes), and the test would time out.
    const { result, notes } = await approved(
      w,
      'mkdir -p .git/rebase-merge && mkfifo .git/rebase-merge/git-rebase-todo && echo done',
    )
    expect(result.stdout).toBe('done\n')
    // A FIFO is no to-do list Shellgate can check: judged the worst case, its state folder goes
    // aside (untouched, unread), and the audit returned.
    expect(notes.join('\n')).toMatch(/moved \.git\/rebase-merge aside .*too large or odd/)
    const [aside] = readdirSync(join(w.workspace, '.git')).filter((name) =>
      name.startsWith('rebase-merge.quarantined'),
    )
    expect(lstatSync(join(w.workspace, '.git', aside as string, 'git-rebase-todo')).isFIFO()).toBe(true)
  })
})
