import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { createFsLookups } from '../../../../../src/main/core/bash/places/fs-lookups'
import { expandGlob } from '../../../../../src/main/core/bash/places/glob-expand'
import { globSemantics, UNKNOWN_GLOBBING } from '../../../../../src/main/core/bash/places/shell-globbing'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

describe('red team: a glob after -- reads whatever it picks', () => {
  const tempDir = tempDirsRemovedAfterEach()

  function workspaceWithLink() {
    const root = realpathSync(tempDir())
    const workspace = join(root, 'ws')
    const home = join(root, 'home')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    mkdirSync(workspace)
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n')
    writeFileSync(join(workspace, 'a.ts'), 'x\n')
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, 'notes.txt'))
    return { cwd: workspace, workspace, home, platform: 'linux' as const }
  }

  it('cat -- * prints the key behind a planted link for real, and asks; cat -- *.ts does not', () => {
    const options = workspaceWithLink()
    expect(spawnSync('bash', ['-c', 'cat -- *'], { cwd: options.cwd, encoding: 'utf8' }).stdout).toContain(
      'KEY',
    )
    for (const command of [
      'cat -- *',
      'head -- *.txt',
      'grep -h K -- n*',
      'wc -- ?otes.txt',
      'sort -- [n]*',
    ]) {
      const verdict = classifyCommand(command, options)
      expect(verdict.readOnly, command).toBe(true)
      expect(verdict.asks?.[0], command).toMatchObject({ kind: 'secret' })
    }
    expect(classifyCommand('cat -- *.ts', options).asks).toBeUndefined()
    // ~/* is listed in the home folder, here one the user lets read-only commands read.
    symlinkSync(join(options.home, '.ssh', 'id_rsa'), join(options.home, 'notes'))
    const readable = { ...options, readableFolders: [options.home] }
    expect(classifyCommand('cat -- ~/*', readable).asks?.[0]).toMatchObject({ kind: 'secret' })
    // A pattern in a folder part is walked as bash walks it: through a symlinked folder too.
    writeFileSync(join(options.home, '.ssh', 'known'), 'HOSTS\n')
    expect(classifyCommand('cat -- */known', options).asks).toBeUndefined()
    symlinkSync(join(options.home, '.ssh'), join(options.cwd, 'keys'))
    const run = spawnSync('bash', ['-c', 'cat -- */known'], { cwd: options.cwd, encoding: 'utf8' })
    expect(run.stdout).toBe('HOSTS\n')
    expect(classifyCommand('cat -- */known', options).asks?.[0]).toMatchObject({ kind: 'secret' })
  })

  // bash is the oracle: whatever it expands a pattern to must be among the matches we judge.
  const NAMES = ['a.ts', 'b.js', '.env', '-o', 'x y', 'A1', 'a]b', 'a[b', 'é.txt', 'ab', '!x', '^y']
  const PIECES = [
    '*',
    '?',
    'a',
    '.',
    't',
    '[ab]',
    '[!a]',
    '[^a]',
    '[a-z]',
    '[]]',
    '\\*',
    '*.ts',
    '.*',
    '-',
    '[.]',
  ]
  it('our matches hold every file bash expands the pattern to (seed 95, 300 patterns)', () => {
    const dir = realpathSync(tempDir())
    for (const name of NAMES) writeFileSync(join(dir, name), '')
    const random = seededRandom(95)
    let listed = 0
    for (let index = 0; index < 300; index += 1) {
      const pattern = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, PIECES)).join(
        '',
      )
      const found = expandGlob(pattern, dir, globSemantics(UNKNOWN_GLOBBING), createFsLookups())
      const ours = 'unknown' in found ? null : found.matches
      const script = `shopt -s nullglob; set -- ${pattern}; printf '%s\\0' "$@"`
      const theirs = execFileSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' })
        .split('\0')
        .filter(Boolean)
      // A pattern bash leaves alone because it matched nothing is not a file it reads.
      if (ours === null) continue
      listed += 1
      // A word bash passes on as it is (no glob in it, or a quoted one) names no planted file.
      for (const file of theirs.filter((name) => NAMES.includes(name)))
        expect(ours, `${pattern} -> ${file}`).toContain(file)
    }
    expect(listed).toBeGreaterThan(250)
  })
})
