import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import {
  decideBashPermission,
  loadCommandRegistry,
  type RuleSet,
  suggestRules,
} from '../../../../src/main/core/permissions'

// Deterministic: a failure names the seed and the command, so it can be replayed.
function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0
    return state / 2 ** 32
  }
}

const SEEDS = [
  'git -C sub commit -m "x"',
  'pnpm --dir app run lint && rm -rf dist',
  'sudo env A=1 nohup time python3 -m pytest tests',
  "bash -c 'find . -exec rm {} +' | xargs -I{} sh -c 'echo {}'",
  'make -C x build > out.txt 2>&1',
  'aws --profile p s3 cp a b; gcloud compute instances list',
  'cat <<EOF\nhi\nEOF',
  "echo $'\\x72m' && $(printf rm) -rf /",
]
const ALPHABET =
  ' \t\n;&|()<>$`\'"\\*?[]{}=:-/.~#!%^@+0123456789abcdefghijklmnopqrstuvwxyz\u0000\u00e9\u{1f600}'
const RULES: RuleSet[] = [
  {
    source: 'workspace',
    file: '/ws/.shellgate/settings.json',
    rules: {
      allow: ['npm test:*', 'git *', '*a*b*c'],
      ask: ['git push:*', "bash -c 'x':*"],
      deny: ['rm:*', '* --force*'],
    },
  },
]

describe('permissions never throw on hostile input', () => {
  it('random and mutated commands: decide and suggest always answer', () => {
    const random = prng(0x5eed)
    const registry = loadCommandRegistry()
    for (let i = 0; i < 600; i += 1) {
      let command: string
      if (i % 2 === 0) {
        const base = SEEDS[i % SEEDS.length] as string
        const chars = [...base]
        for (let m = 0; m < 1 + Math.floor(random() * 4); m += 1) {
          const at = Math.floor(random() * (chars.length + 1))
          chars.splice(
            at,
            Math.floor(random() * 2),
            ALPHABET[Math.floor(random() * ALPHABET.length)] as string,
          )
        }
        command = chars.join('')
      } else {
        const length = Math.floor(random() * 80)
        command = Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('')
      }
      const verdict = classifyCommand(command, { cwd: '/', platform: 'linux' })
      for (const mode of ['build', 'plan', 'yolo'] as const) {
        const decision = decideBashPermission({ verdict, mode, ruleSets: RULES, registry })
        expect(['allow', 'ask', 'deny'], `${i}: ${JSON.stringify(command)}`).toContain(decision.outcome)
        expect(decision.reason.length).toBeGreaterThan(0)
        if (mode === 'plan' && !verdict.readOnly) expect(decision.outcome).not.toBe('allow')
      }
      const suggestions = suggestRules(verdict, registry)
      expect(suggestions.length).toBeLessThanOrEqual(5)
      if (suggestions.length > 0) {
        // What the approval card offers must work: saving it allows this very command.
        const saved = decideBashPermission({
          verdict,
          mode: 'build',
          registry,
          ruleSets: [{ source: 'session', file: null, rules: { allow: suggestions, ask: [], deny: [] } }],
        })
        expect(saved.outcome, `${i}: ${JSON.stringify(command)} with ${JSON.stringify(suggestions)}`).toBe(
          'allow',
        )
      }
    }
  })
})
