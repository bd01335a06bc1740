import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { parseListing } from '../../../../../src/main/core/bash/git-safety/git-config-by-git'
import { findProgramKey } from '../../../../../src/main/core/bash/git-safety/program-config-keys'
import { findProgramConfig } from '../../../../../src/main/core/bash/git-safety/repository-config-scan'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

const CLEAN_ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
}

/** A real repository with one commit, and an fsmonitor script that touches `marker` when git runs it. */
function repository(root: string): { root: string; marker: string; hook: string } {
  mkdirSync(root, { recursive: true })
  execFileSync('git', ['init', '-q', root], { env: CLEAN_ENV })
  writeFileSync(join(root, 'f'), 'x\n')
  execFileSync('git', ['-C', root, 'add', 'f'], { env: CLEAN_ENV })
  execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'm'], {
    env: CLEAN_ENV,
  })
  const marker = join(root, 'fsmonitor-ran')
  const hook = join(root, 'hook.sh')
  writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
  return { root, marker, hook }
}

function gitStatusRunsHook(root: string, marker: string, env: NodeJS.ProcessEnv = CLEAN_ENV): boolean {
  spawnSync('git', ['status', '--short'], { cwd: root, env, stdio: 'ignore' })
  return existsSync(marker)
}

describe('class 5: git config as git reads it', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('a comment ending in \\ does not join the next line: git runs the fsmonitor, we refuse', () => {
    const { root, marker, hook } = repository(join(tempDir(), 'repo'))
    appendFileSync(join(root, '.git', 'config'), `# a comment \\\n[core]\n\tfsmonitor = ${hook}\n`)
    const verdict = classifyCommand('git status', { cwd: root, platform: 'linux' })
    expect(verdict).toMatchObject({ readOnly: false, reason: expect.stringContaining('core.fsmonitor') })
    expect(gitStatusRunsHook(root, marker)).toBe(true)
  })

  it('gitdir: conditions keep their spaces: an includeIf for a folder with spaces is followed', () => {
    const base = tempDir()
    const { root, marker } = repository(join(base, 'a folder '))
    // The program itself lives at a path without spaces, so git's shell runs it as one word.
    const hook = join(base, 'hook.sh')
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    writeFileSync(join(root, 'evil.inc'), `[core]\n\tfsmonitor = ${hook}\n`)
    appendFileSync(join(root, '.git', 'config'), `[includeIf "gitdir:${root}/"]\n\tpath = ../evil.inc\n`)
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' }).readOnly).toBe(false)
    expect(gitStatusRunsHook(root, marker)).toBe(true)
  })

  it('.. after a symlinked folder in an include is resolved by the kernel, not by path arithmetic', () => {
    const base = tempDir()
    const { root, marker, hook } = repository(join(base, 'repo'))
    mkdirSync(join(base, 'elsewhere', 'deep'), { recursive: true })
    symlinkSync(join(base, 'elsewhere', 'deep'), join(root, '.git', 'link'))
    // Path arithmetic reads .git/evil.inc (harmless); the kernel reads elsewhere/evil.inc.
    writeFileSync(join(root, '.git', 'evil.inc'), '[core]\n\tquotepath = false\n')
    writeFileSync(join(base, 'elsewhere', 'evil.inc'), `[core]\n\tfsmonitor = ${hook}\n`)
    appendFileSync(join(root, '.git', 'config'), '[include]\n\tpath = link/../evil.inc\n')
    expect(classifyCommand('git status', { cwd: root, platform: 'linux' }).reason).toContain('core.fsmonitor')
    expect(gitStatusRunsHook(root, marker)).toBe(true)
  })

  it('GIT_CONFIG_* in the environment changes the config: git runs the program, we refuse', () => {
    const { root, marker, hook } = repository(join(tempDir(), 'repo'))
    const env = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: hook }
    const verdict = classifyCommand('git status', { cwd: root, platform: 'linux', env })
    expect(verdict).toMatchObject({
      readOnly: false,
      reason: 'GIT_CONFIG_COUNT in the environment changes which config git reads or what it runs',
    })
    expect(gitStatusRunsHook(root, marker, { ...CLEAN_ENV, ...env })).toBe(true)
    // Formatting variables stay harmless.
    expect(
      classifyCommand('git status', { cwd: root, platform: 'linux', env: { GIT_OPTIONAL_LOCKS: '0' } })
        .readOnly,
    ).toBe(true)
  })

  it('a partial clone: commands that read objects may fetch, ref listings do not', () => {
    const { root } = repository(join(tempDir(), 'repo'))
    execFileSync('git', ['-C', root, 'config', 'remote.origin.url', 'https://example.invalid/x.git'], {
      env: CLEAN_ENV,
    })
    execFileSync('git', ['-C', root, 'config', 'remote.origin.promisor', 'true'], { env: CLEAN_ENV })
    execFileSync('git', ['-C', root, 'config', 'remote.origin.partialclonefilter', 'blob:none'], {
      env: CLEAN_ENV,
    })
    for (const command of [
      'git show HEAD',
      'git log -p',
      'git diff HEAD~0',
      'git cat-file -p HEAD:f',
      'git status',
    ]) {
      const verdict = classifyCommand(command, { cwd: root, platform: 'linux' })
      expect(verdict.readOnly, command).toBe(false)
      expect(verdict.reason).toContain('partial clone')
    }
    for (const command of ['git branch', 'git tag', 'git rev-parse HEAD', 'git remote -v']) {
      expect(classifyCommand(command, { cwd: root, platform: 'linux' }).readOnly, command).toBe(true)
    }
  })

  it('the cached answer follows the config files: an edit is seen on the next classify', () => {
    const { root, hook } = repository(join(tempDir(), 'repo'))
    expect(classifyCommand('git log', { cwd: root, platform: 'linux' }).readOnly).toBe(true)
    appendFileSync(join(root, '.git', 'config'), `[core]\n\tpager = ${hook}\n`)
    expect(classifyCommand('git log', { cwd: root, platform: 'linux' }).reason).toContain('core.pager')
  })

  it('an include that does not exist yet is watched too', () => {
    const { root, hook } = repository(join(tempDir(), 'repo'))
    appendFileSync(join(root, '.git', 'config'), '[include]\n\tpath = later.inc\n')
    expect(classifyCommand('git log', { cwd: root, platform: 'linux' }).readOnly).toBe(true)
    writeFileSync(join(root, '.git', 'later.inc'), `[diff]\n\texternal = ${hook}\n`)
    expect(classifyCommand('git log', { cwd: root, platform: 'linux' }).reason).toContain('diff.external')
  })

  // Differential: what we conclude from the cached reading against git itself, run in the
  // repository, listing its config with includes, on generated configs with every trick above.
  const TRICKS = [
    '# comment \\\n[core]\n\tfsmonitor = HOOK\n',
    '[core]\n\t; c \\\n\tpager = HOOK\n',
    '[core]\n\tpager = "a \\\nb"\n',
    '[diff "x"]\n\ttextconv = HOOK\n',
    '[include]\n\tpath = inc/one.inc\n',
    '[includeIf "gitdir:ROOT/"]\n\tpath = ../two.inc\n',
    '[includeIf "gitdir:/nowhere/"]\n\tpath = ../two.inc\n',
    '[include]\n\tpath = link/../three.inc\n',
    '[core]\n\tquotepath = false\n',
    '[alias]\n\tst = status\n',
    '[CORE]\n\tFSMONITOR = HOOK\n',
    '[core "sub"]\n\tpager = HOOK\n',
    '[filter "lfs"]\n\tsmudge = HOOK\n',
    '[core]\n\tpager\n',
  ]
  it('agrees with git config --list --includes on generated configs (seed 5, 40 repositories)', () => {
    const random = seededRandom(5)
    let unsafe = 0
    for (let index = 0; index < 40; index += 1) {
      const base = tempDir()
      const { root, hook } = repository(join(base, 'repo'))
      mkdirSync(join(root, '.git', 'inc'))
      mkdirSync(join(base, 'far', 'deep'), { recursive: true })
      symlinkSync(join(base, 'far', 'deep'), join(root, '.git', 'link'))
      const fill = (text: string) => text.replaceAll('HOOK', hook).replaceAll('ROOT', root)
      writeFileSync(join(root, '.git', 'inc', 'one.inc'), fill(pick(random, TRICKS)))
      writeFileSync(join(root, 'two.inc'), fill(pick(random, TRICKS)))
      writeFileSync(join(base, 'far', 'three.inc'), fill(pick(random, TRICKS)))
      for (let trick = 0; trick < 3; trick += 1)
        appendFileSync(join(root, '.git', 'config'), fill(pick(random, TRICKS)))
      const git = spawnSync('git', ['config', '--list', '--show-origin', '--includes', '-z'], {
        cwd: root,
        env: CLEAN_ENV,
        encoding: 'utf8',
      })
      const ours = findProgramConfig(join(root, '.git'))
      if (git.status !== 0) {
        expect('problem' in ours, `git refused ${root}`).toBe(true)
        continue
      }
      const listing = parseListing(git.stdout)
      if (!listing.ok) throw new Error(listing.problem)
      const theirs = listing.config.entries.map((entry) => findProgramKey(entry)).find(Boolean) ?? null
      const ourKey = 'problem' in ours ? null : (ours.program?.key ?? ours.worktree?.key ?? null)
      expect(ourKey, JSON.stringify(listing.config.entries)).toBe(theirs)
      if (theirs) unsafe += 1
    }
    expect(unsafe).toBeGreaterThan(10)
  }, 120_000)
})
