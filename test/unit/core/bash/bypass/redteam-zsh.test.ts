import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

/**
 * Sessions may run commands in zsh (the shell setting), while the verdict reads bash grammar.
 * Forms that are plain text to bash but expansions or special names to zsh must not auto-run.
 */
describe('red team: zsh reads some bash literals as expansions', () => {
  const tempDir = tempDirsRemovedAfterEach()
  const hasZsh = spawnSync('zsh', ['-c', 'true']).status === 0

  it.skipIf(!hasZsh)('$~HOME, $=HOME, $^HOME read ~/.ssh/id_rsa in zsh, and are refused', () => {
    const root = realpathSync(tempDir())
    const home = join(root, 'home')
    const workspace = join(root, 'ws')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    mkdirSync(workspace)
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY')
    for (const flag of ['~', '=', '^']) {
      const command = `cat $${flag}HOME/.ssh/id_rsa`
      const run = spawnSync('zsh', ['-c', command], {
        cwd: workspace,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: home },
      })
      expect(run.stdout, command).toBe('KEY')
      const verdict = classifyCommand(command, { cwd: workspace, workspace, home, platform: 'linux' })
      expect(verdict, command).toMatchObject({ readOnly: false, reason: expect.stringContaining('zsh') })
    }
  })

  it.skipIf(!hasZsh)('for path in ./d runs ./d/ls in zsh, and is refused', () => {
    const dir = realpathSync(tempDir())
    mkdirSync(join(dir, 'd'))
    writeFileSync(join(dir, 'd', 'ls'), `#!/bin/sh\n/usr/bin/touch ${join(dir, 'm')}\n`)
    chmodSync(join(dir, 'd', 'ls'), 0o755)
    spawnSync('zsh', ['-c', 'for path in ./d; do ls; done'], { cwd: dir })
    expect(existsSync(join(dir, 'm'))).toBe(true)
    expect(classifyCommand('for path in ./d; do ls; done', { cwd: dir, platform: 'linux' }).readOnly).toBe(
      false,
    )
  })

  const FLAGS = ['~', '=', '^', '+']
  const PLACES = [
    'cat $@HOME/.ssh/id_rsa',
    'cat "$@HOME"/x',
    'grep -r k $@HOME',
    'ls x$@PWD',
    'head "a$@HOME"',
  ]
  it('every zsh parameter flag in every place of a word is refused (seed 91, 200 commands)', () => {
    const random = seededRandom(91)
    for (let index = 0; index < 200; index += 1) {
      const command = pick(random, PLACES).replace('@', pick(random, FLAGS))
      expect(classifyCommand(command, { cwd: '/tmp', platform: 'linux' }).readOnly, command).toBe(false)
    }
    for (const name of ['path', 'cdpath', 'fpath', 'manpath', 'module_path']) {
      expect(
        classifyCommand(`for ${name} in a; do ls; done`, { cwd: '/tmp', platform: 'linux' }).readOnly,
      ).toBe(false)
    }
  })

  it('an escaped $, a $ at the end, and quoted ones stay read-only', () => {
    for (const command of [
      'echo \\$~HOME',
      'grep "x$" f',
      "grep '$~x' f",
      'echo a$',
      'for f in a b; do echo $f; done',
    ]) {
      expect(classifyCommand(command, { cwd: '/tmp', platform: 'linux' }).readOnly, command).toBe(true)
    }
  })
})
