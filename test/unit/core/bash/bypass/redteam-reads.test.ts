import { spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ClassifyOptions, classifyCommand } from '../../../../../src/main/core/bash/classify'
import { decideBashPermission, loadCommandRegistry } from '../../../../../src/main/core/permissions'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

/**
 * Reads the place checks did not see: values of flags that name a file, the command xargs runs,
 * git's own file flags and `diff --no-index`, and `..` after a symlink. Each real tool below prints
 * the file's content; the verdict must then ask (a secret, or outside the workspace) or refuse
 * (a process's environment).
 */
describe('red team: files a read-only command reads through its flags', () => {
  const tempDir = tempDirsRemovedAfterEach()

  function places(): ClassifyOptions & { workspace: string; home: string; outside: string } {
    const root = realpathSync(tempDir())
    const workspace = join(root, 'ws')
    const home = join(root, 'home')
    mkdirSync(workspace, { recursive: true })
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY')
    const outside = join(root, 'secret.txt')
    writeFileSync(outside, 'SECRET-TOKEN-123\n')
    writeFileSync(join(workspace, 'f'), 'x\n')
    return { cwd: workspace, workspace, home, shellgateHome: join(home, '.sg'), platform: 'linux', outside }
  }

  const run = (command: string, cwd: string) =>
    // stdin /dev/null: Debian's bash sources ~/.bashrc when stdin is a socket, as Node's pipes are.
    spawnSync('bash', ['-c', command], {
      cwd,
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    })

  it.each([
    'date -f FILE',
    'date --file=FILE',
    'file -m FILE f',
    'tar -tf a.tar -T FILE',
    'ss -F FILE',
    'diff --from-file=FILE /dev/null',
    'xargs -a FILE echo',
    'xargs cat FILE',
    'xargs head FILE',
    'git diff --no-index FILE /dev/null',
    'git diff FILE /dev/null',
    'git blame --contents FILE f',
    'strings @FILE',
    'hexdump -fFILE f',
  ])('%s prints the file for real, and asks', (template) => {
    const options = places()
    run(
      'tar -cf a.tar f && git init -q && git add f && git -c user.name=t -c user.email=t@t commit -qm m',
      options.cwd,
    )
    const command = template.replace('FILE', options.outside)
    const output = run(command, options.cwd)
    if (!template.startsWith('xargs cat')) expect(output.stdout + output.stderr).toContain('SECRET-TOKEN-123')
    const verdict = classifyCommand(command, options)
    if (template.startsWith('xargs cat')) return expect(verdict.readOnly).toBe(false)
    expect(verdict.readOnly, verdict.reason).toBe(true)
    expect(verdict.asks?.map((ask) => ask.path)).toContain(options.outside)
  })

  // Every file flag in every spelling getopt accepts, pointed at the environment: all refused.
  const FLAGS: Array<[string, string[], string]> = [
    ['date', ['-f', '--file', '-r', '--reference'], ''],
    ['file', ['-m', '--magic-file', '-f', '--files-from'], 'f'],
    ['tar -t', ['-f', '--file', '-T', '--files-from', '-X', '--exclude-from'], ''],
    ['ss', ['-F', '--filter'], ''],
    ['journalctl', ['-D', '--directory', '--file'], ''],
    ['xargs', ['-a', '--arg-file'], 'echo'],
    ['diff', ['--from-file', '--to-file', '-X', '--exclude-from'], 'f'],
    ['du', ['--files0-from', '-X', '--exclude-from'], 'f'],
    ['hexdump', ['-f', '--format-file'], 'f'],
    ['xargs wc', ['--files0-from'], ''],
    ['xargs grep x', ['-f', '--file'], ''],
    ['git blame', ['--contents', '--ignore-revs-file'], 'f'],
    ['git config --get a.b', ['-f', '--file'], ''],
  ]
  const ENVIRONS = [
    '/proc/self/environ',
    '/proc/1/environ',
    '/dev/fd/../environ',
    '/proc/self/../self/environ',
  ]
  it('every file flag, spelled any way, is path-checked (seed 83, 400 commands)', () => {
    const options = places()
    const random = seededRandom(83)
    for (let index = 0; index < 400; index += 1) {
      const [command, flags, rest] = pick(random, FLAGS)
      const flag = pick(random, flags)
      const target = pick(random, ENVIRONS)
      const long = flag.startsWith('--')
      const word = pick(
        random,
        long ? [`${flag}=${target}`, `${flag} ${target}`] : [`${flag}${target}`, `${flag} ${target}`],
      )
      const line = `${command} ${word} ${rest}`.trim()
      const verdict = classifyCommand(line, options)
      expect(verdict.readOnly, `${line}: ${verdict.reason}`).toBe(false)
    }
  })

  it('sort --files0-from prints the files a planted list names for real, and asks', () => {
    const options = places()
    writeFileSync(join(options.workspace, 'list'), `${join(options.home, '.ssh', 'id_rsa')}\0`)
    expect(run('sort --files0-from=list', options.cwd).stdout).toBe('KEY\n')
    for (const command of [
      'sort --files0-from=list',
      'sort --files0-from list',
      'wc --files0-from=list',
      'du --files0-from=list',
    ]) {
      const verdict = classifyCommand(command, options)
      expect(verdict.asks?.[0]?.reason, command).toContain('known at run time')
    }
  })

  it('the command xargs runs reads paths known at run time: a reader asks, echo does not', () => {
    const options = places()
    for (const command of ['git ls-files | xargs grep -n x', 'echo ~/.ssh/id_rsa | xargs head']) {
      const verdict = classifyCommand(command, options)
      expect(verdict.readOnly, command).toBe(true)
      expect(verdict.asks?.[0]?.reason, command).toContain('known at run time')
    }
    expect(classifyCommand('echo a b | xargs echo', options).asks).toBeUndefined()
    expect(classifyCommand('echo a b | xargs', options).asks).toBeUndefined()
    // wc prints counts and names, but an input line may be a flag (issue 21.3): after `--` every
    // line is a file name, and wc stays without a question.
    writeFileSync(join(options.workspace, 'secret'), 'hunter2\n')
    const leak = run("printf -- '--files0-from=secret' | xargs wc -l", options.cwd)
    expect(leak.stderr).toContain('hunter2')
    expect(classifyCommand('git ls-files | xargs wc -l', options).asks?.[0]?.reason).toContain(
      'known at run time',
    )
    expect(classifyCommand("printf -- '--files0-from=secret' | xargs wc -l", options).asks?.length).toBe(1)
    expect(classifyCommand('git ls-files -z | xargs -0 wc -l --', options).asks).toBeUndefined()
    expect(classifyCommand('xargs wc -l /proc/self/environ', options).readOnly).toBe(false)
  })
})

describe('red team: .. after a symlink is where the kernel goes', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('link/../environ through /dev/fd prints the environment for real, and is refused', () => {
    const workspace = realpathSync(tempDir())
    symlinkSync('/dev/fd', join(workspace, 'link'))
    const out = spawnSync('bash', ['-c', 'cat link/../environ'], {
      cwd: workspace,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TOKEN: 'secret-token-value' },
    })
    expect(out.stdout).toContain('TOKEN=secret-token-value')
    for (const spelling of [
      'link/../environ',
      './link/../environ',
      'link/./../environ',
      'link//../environ',
    ]) {
      const verdict = classifyCommand(`cat ${spelling}`, { cwd: workspace, workspace, platform: 'linux' })
      expect(verdict.readOnly, spelling).toBe(false)
    }
  })

  it('a symlink to a secrets folder, then .., asks: the lexical path stayed in the workspace', () => {
    const root = realpathSync(tempDir())
    const workspace = join(root, 'ws')
    const home = join(root, 'home')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    mkdirSync(workspace)
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY')
    symlinkSync(join(home, '.ssh'), join(workspace, 'keys'))
    const out = spawnSync('bash', ['-c', 'cat keys/../.ssh/id_rsa'], { cwd: workspace, encoding: 'utf8' })
    expect(out.stdout).toBe('KEY')
    const verdict = classifyCommand('cat keys/../.ssh/id_rsa', {
      cwd: workspace,
      workspace,
      home,
      platform: 'linux',
    })
    expect(verdict.asks?.[0]).toMatchObject({ kind: 'secret', path: join(home, '.ssh', 'id_rsa') })
    // Without a symlink, .. stays lexical and inside the workspace: no question.
    mkdirSync(join(workspace, 'a'))
    writeFileSync(join(workspace, 'f'), 'x')
    expect(
      classifyCommand('cat a/../f', { cwd: workspace, workspace, home, platform: 'linux' }).asks,
    ).toBeUndefined()
  })
})

describe('red team: symlinks met inside a folder operand', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('grep -R and diff DIR DIR print a key through a planted link for real, and ask', () => {
    const root = realpathSync(tempDir())
    const workspace = join(root, 'ws')
    const home = join(root, 'home')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    mkdirSync(join(workspace, 'a'), { recursive: true })
    mkdirSync(join(workspace, 'b', 'keys'), { recursive: true })
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n')
    writeFileSync(join(workspace, 'b', 'keys', 'id_rsa'), 'dummy\n')
    symlinkSync(join(home, '.ssh'), join(workspace, 'keys'))
    symlinkSync(join(home, '.ssh'), join(workspace, 'a', 'keys'))
    const options = { cwd: workspace, workspace, home, platform: 'linux' as const }
    for (const command of [
      'grep -R KEY .',
      'grep --dereference-recursive KEY',
      'diff -r a b',
      'diff a/keys b/keys',
    ]) {
      const out = spawnSync('bash', ['-c', command], { cwd: workspace, encoding: 'utf8' })
      expect(out.stdout, command).toContain('KEY')
      const verdict = classifyCommand(command, options)
      expect(verdict.readOnly, command).toBe(true)
      expect(verdict.asks?.length, command).toBeGreaterThan(0)
    }
    // grep -r (lowercase) does not follow links it meets: it asks only for the secret-named file it
    // does read (b/keys/id_rsa, issue 21.4), never for the link.
    expect(spawnSync('bash', ['-c', 'grep -r KEY .'], { cwd: workspace, encoding: 'utf8' }).stdout).toBe('')
    for (const command of ['grep -rn KEY .', 'diff --no-dereference -r a b']) {
      const reasons = (classifyCommand(command, options).asks ?? []).map((ask) => ask.reason)
      expect(reasons, command).toEqual([expect.stringContaining('b/keys/id_rsa')])
    }
  })
})

describe('red team: a $(…) runs where its command runs, after a cd', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('cd DIR && echo $(cat FILE) reads DIR/FILE for real, and is judged there', () => {
    const root = realpathSync(tempDir())
    const workspace = join(root, 'ws')
    mkdirSync(join(root, 'outside'), { recursive: true })
    mkdirSync(workspace)
    writeFileSync(join(root, 'outside', 'secret.txt'), 'SECRET-TOKEN-123\n')
    const command = `cd ${join(root, 'outside')} && echo $(cat secret.txt)`
    expect(spawnSync('bash', ['-c', command], { cwd: workspace, encoding: 'utf8' }).stdout).toBe(
      'SECRET-TOKEN-123\n',
    )
    const options = { cwd: workspace, workspace, platform: 'linux' as const }
    expect(classifyCommand(command, options)).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('asking first'),
    })
    expect(classifyCommand('pushd /tmp && echo $(cat f)', options)).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('folder only known at run time'),
    })
    // Inside the workspace it stays read-only.
    mkdirSync(join(workspace, 'src'))
    writeFileSync(join(workspace, 'src', 'f'), 'x')
    expect(classifyCommand('cd src && echo $(cat f)', options)).toMatchObject({ readOnly: true })
  })
})

describe('red team: secrets spelled as case-insensitive file systems read them', () => {
  const tempDir = tempDirsRemovedAfterEach()

  // Not run for real: this machine's file system is case-sensitive. On macOS (APFS) and Windows
  // `cat .ENV` opens .env, and Windows drops trailing dots and spaces.
  it('.ENV, .Env.local, .env. and ~/.SSH/id_rsa ask', () => {
    const root = realpathSync(tempDir())
    const home = join(root, 'home')
    const options = { cwd: root, workspace: root, home, readableFolders: [home], platform: 'darwin' as const }
    for (const command of [
      'cat .ENV',
      'cat .Env.local',
      'cat .env.',
      'cat .envrc ',
      'cat ~/.SSH/id_rsa',
      'cat ~/.Aws/credentials',
    ]) {
      expect(classifyCommand(command, options).asks?.[0]?.kind, command).toBe('secret')
    }
    expect(classifyCommand('cat environment.ts', options).asks).toBeUndefined()
  })
})

describe('red team: readsOutsideWorkspace: allow still asks for paths no check can see', () => {
  const registry = loadCommandRegistry()

  it('run-time paths, links followed, unlistable globs and ~user secrets print the environment or a key, and ask', () => {
    const run = spawnSync('bash', ['-c', 'cat $(echo /proc/self/environ)'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TOKEN: 'secret-token-value' },
    })
    expect(run.stdout).toContain('TOKEN=secret-token-value')
    const options = { cwd: '/tmp', workspace: '/tmp', platform: 'linux' as const }
    const decide = (command: string) =>
      decideBashPermission({
        verdict: classifyCommand(command, options),
        mode: 'build',
        ruleSets: [],
        registry,
        readsOutsideWorkspace: 'allow',
      })
    for (const command of [
      'cat $(echo /proc/self/environ)',
      'echo /proc/self/environ | xargs head',
      'pushd /proc/self && cat environ',
      'grep -R x /etc',
      // zsh's ***/ follows symlinked folders anywhere: not listed here, so the matches are unknown.
      'cat -- /etc/***/passwd',
      'cat ~root/.ssh/id_rsa',
      // Resolved by the command's own process: its folder, not the classifier's.
      'cat /proc/self/cwd/../secret.txt',
      'cat /dev/fd/3',
    ]) {
      expect(decide(command).outcome, command).toBe('ask')
    }
    expect(decide('cat /etc/hostname').outcome).toBe('allow')
  })
})
