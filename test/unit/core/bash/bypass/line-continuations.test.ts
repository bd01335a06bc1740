import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { tempDirsRemovedAfterEach } from '../../exec/temp-dir'

/**
 * bash deletes backslash-newline before it expands anything (fifth review): `$\⏎GITHUB_TOKEN` is
 * `$GITHUB_TOKEN` to bash and a literal `$` to the parser. Every way of splitting a credential's
 * expansion with one is generated, run in real bash, and judged.
 */
const MARKER = 'ghp_CONTINUED7731'
// Built from parts: bash's own `${…}`, which biome would take for a template placeholder.
const BRACED = ['{GITHUB_TOKEN}', '{GITHUB_TOKEN:-x}'].map((inner) => `$${inner}`)
const EXPANSIONS = ['$GITHUB_TOKEN', '"$GITHUB_TOKEN"', ...BRACED, ...BRACED.map((word) => `"${word}"`)]
const PRINTERS = [
  (word: string) => `echo ${word}`,
  (word: string) => `printf '%s\\n' ${word}`,
  (word: string) => `cat <<< ${word}`,
  (word: string) => `cat <<EOF\n${word}\nEOF`,
]

/** The expansion with a backslash-newline put after each of its characters in turn. */
function splits(expansion: string): string[] {
  return Array.from(
    { length: expansion.length - 1 },
    (_, at) => `${expansion.slice(0, at + 1)}\\\n${expansion.slice(at + 1)}`,
  )
}

function runInBash(command: string, cwd: string): string {
  const result = spawnSync('bash', ['-c', command], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', GITHUB_TOKEN: MARKER },
  })
  return result.stdout
}

describe('a backslash-newline inside a word', () => {
  const tempDir = tempDirsRemovedAfterEach()

  it('every split of a credential expansion that bash still expands is never run unasked', () => {
    const cwd = tempDir()
    const leaking: string[] = []
    const unasked: string[] = []
    for (const expansion of EXPANSIONS) {
      for (const split of splits(expansion)) {
        for (const printer of PRINTERS) {
          const command = printer(split)
          if (!runInBash(command, cwd).includes(MARKER)) continue
          leaking.push(command)
          const verdict = classifyCommand(command, { cwd, workspace: cwd })
          if (verdict.readOnly && (verdict.asks?.length ?? 0) === 0) unasked.push(command)
        }
      }
    }
    // The generator does reach the class: most splits still print the token for real.
    expect(leaking.length).toBeGreaterThan(60)
    expect(unasked).toEqual([])
  })

  it('an arithmetic re-evaluation hidden the same way runs a program in bash, and is refused', () => {
    const cwd = tempDir()
    const command = 'echo "$\\\n{Y=a[\\$(touch ran)]}$\\\n((Y))"'
    runInBash(command, cwd)
    expect(spawnSync('test', ['-e', `${cwd}/ran`]).status).toBe(0)
    expect(classifyCommand(command, { cwd, workspace: cwd })).toMatchObject({
      readOnly: false,
      reason: expect.stringContaining('a backslash-newline inside a word'),
    })
  })

  it('a continuation between words, as agents write long commands, still runs at once', () => {
    const cwd = tempDir()
    for (const command of [
      'find . -name "*.ts" \\\n  -newer package.json',
      'grep -rn TODO \\\n\tsrc',
      'ls -la &&\\\n git status --short',
      'ls |\\\n wc -l',
      'cat package.json;\\\npwd',
      // Joined or not, these read the same: a glued continuation in a plain word, an escaped
      // backslash before a newline (two commands), and one inside single quotes (kept by bash).
      'ls sr\\\nc',
      'echo a\\\\\nls',
      "grep -n 'a\\\nb' README.md",
    ]) {
      const verdict = classifyCommand(command, { cwd, workspace: cwd })
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
    }
  })
})
