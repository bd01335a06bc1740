import { spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

// A path known only at run time, in the forms a line may hold it; OUT is a file outside the workspace.
const FORMS = [
  (reader: string) => `${reader} $OUT`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  (reader: string) => `${reader} \${OUT}`,
  (reader: string) => `${reader} "$OUT"`,
  (reader: string) => `${reader} "$DIR"/secret.txt`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  (reader: string) => `${reader} \${DIR}/secret.txt`,
  (reader: string) => `for f in *.lnk; do ${reader} "$f"; done`,
]
const READERS = ['cat', 'head -n 1', 'wc -c', 'grep -h TOKEN', 'ls -la', 'stat -L -c %s', 'du -bL']

describe('paths known only at run time ask, everywhere (issue 21.6)', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('a reader given a run-time path really reaches outside the workspace, and never runs without a question (seed 216, 120 lines)', () => {
    const outside = realpathSync(tempDir())
    writeFileSync(join(outside, 'secret.txt'), 'TOKEN=hunter2\n')
    const workspace = realpathSync(tempDir())
    mkdirSync(join(workspace, 'src'))
    // A name the loop's glob yields that is a link out of the workspace.
    spawnSync('ln', ['-s', join(outside, 'secret.txt'), join(workspace, 'a.lnk')])
    const env = { PATH: process.env.PATH ?? '', OUT: join(outside, 'secret.txt'), DIR: outside }
    const random = seededRandom(216)
    for (let index = 0; index < 120; index += 1) {
      const reader = pick(random, READERS)
      const command = pick(random, FORMS)(reader)
      if (index < 14) {
        // Real bash: the reader reached the outside file (its text, or its size of 14 bytes).
        // stdin /dev/null: Debian's bash sources ~/.bashrc when stdin is a socket, as Node's pipes are.
        const run = spawnSync('bash', ['-c', command], {
          cwd: workspace,
          env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        expect(run.stdout, command).toMatch(/hunter2|14|secret\.txt/)
      }
      for (const options of [{ workspace }, {}]) {
        const verdict = classifyCommand(command, { cwd: workspace, platform: 'linux', ...options })
        const silent = verdict.readOnly && (verdict.asks ?? []).length === 0
        expect(silent, `${command}: ${verdict.reason}`).toBe(false)
      }
    }
  })
})
