import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { findSedScriptProblem } from '../../../../../src/main/core/bash/readonly/callbacks/sed-script'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'
import { pick, seededRandom } from '../seeded-random'

const ADDRESSES = ['', '1', '$', '/a/', '1,3', '\\%x%', '0~2', '/a/,+2', '2!', '/w/I']
const COMMANDS = [
  'p',
  'd',
  's/a/b/',
  's/w/e/g',
  's|a|b|2p',
  's/a/b/w out',
  's/x/y/e',
  's/x/y/gew out',
  'w out',
  'W out',
  'e echo hi',
  'e',
  'y/ab/cd/',
  'a text with w and e',
  'i\\\ninserted',
  'c changed',
  'b end',
  ':end',
  't end',
  '{p}',
  '{\nw out\n}',
  'q',
  'Q',
  'l',
  '=',
  'n',
  'N',
  '# w comment',
  'z',
  'F',
]
const SEPARATORS = [';', '\n', ' ; ']

function randomScript(random: () => number): string {
  const count = 1 + Math.floor(random() * 3)
  return Array.from({ length: count }, () => pick(random, ADDRESSES) + pick(random, COMMANDS)).join(
    pick(random, SEPARATORS),
  )
}

describe('sed scripts against GNU sed --sandbox, which rejects e/r/w', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('every script the sandbox rejects for e/w, we refuse too (seed 42, 150 scripts)', () => {
    const random = seededRandom(42)
    const cwd = tempDir()
    let sandboxRejections = 0
    const acceptedButRefused: string[] = []
    for (let index = 0; index < 150; index += 1) {
      const script = randomScript(random)
      const sed = spawnSync('sed', ['--sandbox', '-n', '-e', script, '/dev/null'], { cwd, encoding: 'utf8' })
      if (sed.status === 0 && findSedScriptProblem(script) !== null) acceptedButRefused.push(script)
      if (!sed.stderr.includes('disabled in sandbox mode')) continue
      sandboxRejections += 1
      expect(findSedScriptProblem(script), JSON.stringify(script)).not.toBeNull()
    }
    // The generator must actually exercise the dangerous commands.
    expect(sandboxRejections).toBeGreaterThan(20)
    // And we do not refuse what sed runs safely, so read-only sed stays usable.
    expect(acceptedButRefused).toEqual([])
  })
})
