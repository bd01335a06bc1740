import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { commandLineWords } from '../../../../src/main/core/sandbox/command-line-words'
import { sealConfiguredPrograms } from '../../../../src/main/core/sandbox/git-config-programs'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A real repository (git init) with a few files, and an empty home. */
function repository(files: string[]): { tree: string; home: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'shellgate-config-programs-')))
  made.push(root)
  const tree = join(root, 'tree')
  const home = join(root, 'home')
  mkdirSync(home)
  execFileSync('git', ['init', '-q', tree])
  for (const file of files) {
    mkdirSync(join(tree, file, '..'), { recursive: true })
    writeFileSync(join(tree, file), '#!/bin/sh\n')
  }
  return { tree, home }
}

function configure(tree: string, key: string, value: string) {
  execFileSync('git', ['config', key, value], {
    cwd: tree,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  })
}

const relativeTo = (tree: string, entries: { path: string }[]) =>
  entries.map((entry) => entry.path.slice(tree.length + 1)).sort()

describe('command-line words, as sh splits them', () => {
  it.each([
    ['node clean.js --fix', ['node', 'clean.js', '--fix']],
    [`cd x && sh 'tools/my clean.sh'`, ['cd', 'x', 'sh', 'tools/my clean.sh']],
    ['a\\ b "c\\"d" e;f|g>h', ['a b', 'c"d', 'e', 'f', 'g', 'h']],
    // What follows an expansion from a slash on is kept: it names a path below wherever that is.
    ['sh "$HOME/x" `y` tools/*.sh z', ['sh', 'x', 'z']],
    ['sh "$(git rev-parse --show-toplevel)/tools/clean.sh" --fix', ['sh', 'tools/clean.sh', '--fix']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    ['node ${ROOT:-.}/a/b.js $1', ['node', 'a/b.js']],
  ])('%s', (line, words) => {
    expect(commandLineWords(line).map((word) => word.text)).toEqual(words)
  })

  it('an unquoted ~/ is the home folder; a quoted one is not', () => {
    expect(commandLineWords(`sh ~/x '~/y' ~`)).toEqual([
      { text: 'sh', fromHome: false },
      { text: 'x', fromHome: true },
      { text: '~/y', fromHome: false },
      { text: '', fromHome: true },
    ])
  })

  // The real shell is the reference for the quoting rules the splitter claims.
  it.each([`a 'b c' "d\\"e" f\\ g`, `x"y"'z' "a\\$b"`])('agrees with bash on %s', (line) => {
    const printed = execFileSync('bash', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8' })
    expect(commandLineWords(line).map((word) => word.text)).toEqual(printed.trimEnd().split('\n'))
  })
})

describe('what git configs name as programs (third sandbox review)', () => {
  it.each([
    ['interactive.diffFilter', 'tools/diff-filter.sh'],
    ['sendemail.smtpServer', 'tools/sendmail.sh'],
    ['sendemail.work.toCmd', 'tools/to.sh'],
    ['imap.tunnel', 'sh tools/tunnel.sh'],
    ['submodule.lib.update', '!sh tools/update.sh'],
    ['hook.lint.command', 'tools/lint.sh'],
    ['remote.origin.url', 'ext::sh tools/remote.sh'],
    ['alias.fix', '!node scripts/fix.js'],
    ['filter.x.clean', 'sh "$(git rev-parse --show-toplevel)/tools/update.sh"'],
  ])('%s = %s is sealed', (key, value) => {
    const { tree, home } = repository([
      'tools/diff-filter.sh',
      'tools/sendmail.sh',
      'tools/to.sh',
      'tools/tunnel.sh',
      'tools/update.sh',
      'tools/lint.sh',
      'tools/remote.sh',
      'scripts/fix.js',
    ])
    configure(tree, key, value)
    const sealed = sealConfiguredPrograms([join(tree, '.git')], tree, home, false)
    expect(sealed.protected).toHaveLength(1)
    expect(value).toContain(relativeTo(tree, sealed.protected)[0])
  })

  it('an ext:: URL that an insteadOf rewrites to is read from the section name', () => {
    const { tree, home } = repository(['tools/remote.sh'])
    writeFileSync(
      join(tree, '.git', 'config'),
      '[url "ext::sh tools/remote.sh --quiet"]\n\tinsteadOf = https://example.test/\n',
      { flag: 'a' },
    )
    const sealed = sealConfiguredPrograms([join(tree, '.git')], tree, home, false)
    expect(relativeTo(tree, sealed.protected)).toEqual(['tools/remote.sh'])
  })

  it('a submodule update mode that is not a command, and an ordinary URL, name nothing', () => {
    const { tree, home } = repository(['rebase', 'tools/x.sh'])
    configure(tree, 'submodule.lib.update', 'rebase')
    configure(tree, 'remote.origin.url', 'tools/x.sh')
    const sealed = sealConfiguredPrograms([join(tree, '.git')], tree, home, false)
    expect(sealed.protected).toEqual([])
    expect(sealed.missing).toEqual([])
  })

  it('a folder on a command line is not sealed; a missing path-like word is watched, a missing name is not', () => {
    const { tree, home } = repository(['scripts/build.js', 'src/index.ts'])
    configure(tree, 'alias.b', '!node scripts/build.js src && npm run build && sh tools/post.sh')
    const sealed = sealConfiguredPrograms([join(tree, '.git')], tree, home, false)
    expect(relativeTo(tree, sealed.protected)).toEqual(['scripts/build.js'])
    expect(relativeTo(tree, sealed.pinned)).toEqual(['scripts'])
    // `npm`, `run` and `build` are names the shell looks up or arguments: a `build/` the command
    // makes is never moved aside.
    expect(relativeTo(tree, sealed.missing)).toEqual(['tools/post.sh'])
  })
})
