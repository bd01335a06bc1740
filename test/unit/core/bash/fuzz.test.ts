import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import type { CommandVerdict } from '../../../../src/main/core/bash/verdict'
import { pick, seededRandom } from './seeded-random'

const TOKENS = [
  'ls',
  'cat',
  'git',
  'status',
  'log',
  'sed',
  '-i',
  '-n',
  'p',
  'find',
  '.',
  '-delete',
  'sort',
  '-o',
  'rm',
  'xargs',
  'sh',
  '-c',
  'echo',
  'grep',
  'jq',
  '$ENV',
  '-la',
  '*',
  '?',
  '[a]',
  '{a,b}',
  '~',
  '--',
  '-',
  ' ',
  ' ',
  ' ',
  ';',
  '&&',
  '||',
  '|',
  '|&',
  '&',
  '>',
  '>>',
  '<',
  '<<',
  '<<<',
  '2>&1',
  '>&',
  '/dev/null',
  '/dev/tcp/h/1',
  '(',
  ')',
  '{',
  '}',
  '$(',
  '`',
  '<(',
  '>(',
  "'",
  '"',
  "$'",
  '\\',
  '\n',
  '#',
  '=',
  'A=1',
  'LANG=C',
  '$x',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  '${x}',
  '$((1))',
  'if',
  'then',
  'fi',
  'for',
  'do',
  'done',
  'case',
  'esac',
  'EOF',
  '\0',
  'é',
  '😀',
  '\uD800',
  '\t',
  '!',
  'time',
  'command',
  '\\\n',
  '[[',
  ']]',
  '((',
  '))',
  'coproc',
  'function',
]

const CORPUS = [
  'git log --oneline -20 | head -5',
  "sed -n '1,20p' src/main.ts",
  'find . -name "*.ts" -not -path "./node_modules/*" | xargs grep -l TODO',
  'cat <<EOF\nhello $USER\nEOF',
  'LANG=C sort -u -k2 file.txt 2>/dev/null',
  "jq -r '.dependencies | keys[]' package.json",
  'cd src && ls -la && git status --short',
  "printf '%s\\n' a b c | wc -l",
]

function checkVerdict(command: string, verdict: CommandVerdict): void {
  expect(typeof verdict.reason).toBe('string')
  expect(verdict.reason.length).toBeGreaterThan(0)
  if (verdict.readOnly) {
    expect(verdict.parsed).toBe(true)
    expect(verdict.parts.length).toBeGreaterThan(0)
    expect(verdict.parts.every((part) => part.readOnly)).toBe(true)
    // `echo $HOME` is read-only (issue 13, class 7) but not safe for prefix rules to match.
    const dynamic = verdict.parts.some((part) => part.argv === null)
    if (dynamic) expect(verdict.permissionSafe).toBe(false)
  }
  if (!verdict.parsed) expect(verdict.permissionSafe).toBe(false)
  expect(verdict.command).toBe(command)
}

describe('fuzz: classify never throws and its verdicts are consistent', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'shellgate-fuzz-'))
  afterAll(() => rmSync(cwd, { recursive: true, force: true }))

  it('random token soups (seed 20261130)', () => {
    const random = seededRandom(20261130)
    for (let iteration = 0; iteration < 2_000; iteration += 1) {
      const length = 1 + Math.floor(random() * 24)
      const command = Array.from({ length }, () => pick(random, TOKENS)).join(random() < 0.5 ? ' ' : '')
      checkVerdict(command, classifyCommand(command, { cwd, platform: random() < 0.2 ? 'win32' : 'linux' }))
    }
  })

  it('mutated realistic commands (seed 7)', () => {
    const random = seededRandom(7)
    for (let iteration = 0; iteration < 2_000; iteration += 1) {
      let command = pick(random, CORPUS)
      const edits = 1 + Math.floor(random() * 4)
      for (let edit = 0; edit < edits; edit += 1) {
        const at = Math.floor(random() * (command.length + 1))
        const roll = random()
        if (roll < 0.4) command = command.slice(0, at) + pick(random, TOKENS) + command.slice(at)
        else if (roll < 0.7) command = command.slice(0, at) + command.slice(at + 1 + Math.floor(random() * 3))
        else
          command =
            command.slice(0, at) + String.fromCharCode(Math.floor(random() * 0x3000)) + command.slice(at + 1)
      }
      checkVerdict(command, classifyCommand(command, { cwd, platform: 'linux' }))
    }
  })
})
