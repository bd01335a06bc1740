import { spawnSync } from 'node:child_process'
import { readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

// Words an input line may hold: a plain file, and flags, one of which names a list of files that
// only the run reads (`--files0-from`): the list holds `hidden`, which no word of the line names.
const INPUT_WORDS = ['f', 'g', '--files0-from=list0', '-c', '-w', '--version']
const DRIVEN = ['wc', 'wc -l', 'wc -c', 'wc -l --', 'wc --']
const SOURCES = [
  (input: string) => `printf '%s\\n' ${input} | xargs`,
  (input: string) => `xargs <<< '${input}'`,
  () => 'xargs -a input',
  () => 'xargs < input',
  () => 'cat input | xargs',
]

describe('inputs that become arguments (issue 21.3)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  /** Whether the real run opened `hidden`, seen by strace. */
  function opensHidden(command: string, cwd: string): boolean {
    const trace = join(cwd, 'trace')
    spawnSync('strace', ['-f', '-qq', '-e', 'trace=open,openat', '-o', trace, 'bash', '-c', command], {
      cwd,
      encoding: 'utf8',
      // stdin /dev/null, not a pipe: Debian's bash sources ~/.bashrc when stdin is a socket (Node's
      // pipes are) and SHLVL is unset, and a pyenv init there made each run take seconds.
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '' },
    })
    return readFileSync(trace, 'utf8').includes('"hidden"')
  }

  it('xargs input from any source reaches wc as flags; only input after wc -- asks nothing (seed 2131, 40 lines)', () => {
    const cwd = realpathSync(tempDir())
    writeFileSync(join(cwd, 'f'), 'one\n')
    writeFileSync(join(cwd, 'g'), 'two\n')
    writeFileSync(join(cwd, 'hidden'), 'TOKEN=hunter2\n')
    writeFileSync(join(cwd, 'list0'), 'hidden\0')
    const random = seededRandom(2131)
    let hiddenRead = 0
    for (let index = 0; index < 40; index += 1) {
      const input = Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
        pick(random, INPUT_WORDS),
      ).join(' ')
      writeFileSync(join(cwd, 'input'), `${input}\n`)
      const driven = pick(random, DRIVEN)
      const command = `${pick(random, SOURCES)(input)} ${driven}`
      const opened = opensHidden(command, cwd)
      const verdict = classifyCommand(command, { cwd, workspace: cwd, platform: 'linux' })
      const silent = verdict.readOnly && (verdict.asks ?? []).length === 0
      if (opened) {
        hiddenRead += 1
        expect(silent, `${command} read hidden for real: ${verdict.reason}`).toBe(false)
      }
      // After wc's own `--` every input word is a file name: wc prints counts and names only.
      if (driven.endsWith('--') && !command.includes('-a input'))
        expect(silent, `${command}: ${verdict.reason} ${JSON.stringify(verdict.asks)}`).toBe(true)
    }
    expect(hiddenRead).toBeGreaterThan(4)
  }, 240_000)
})
