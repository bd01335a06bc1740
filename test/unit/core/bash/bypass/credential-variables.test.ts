import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../../src/main/core/bash/classify'
import { pick, seededRandom } from '../seeded-random'

const classify = (command: string) => classifyCommand(command, { cwd: '/tmp', platform: 'linux' })
const VALUE = 'postgres://app:hunter2@db/app'

describe('reads of variables whose names carry credentials ask (issue 21.4)', () => {
  it('echo, printenv, env, set, declare -p and export -p print a DSN for real, and ask', () => {
    for (const command of [
      'echo "$DATABASE_URL"',
      'printenv DATABASE_URL',
      'env | grep DATABASE',
      'set | grep DATABASE',
      'declare -p DATABASE_URL',
      'export -p | grep DATABASE',
    ]) {
      const run = spawnSync('bash', ['-c', command], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, DATABASE_URL: VALUE },
      })
      expect(run.stdout, command).toContain('hunter2')
      const verdict = classify(command)
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
      expect(verdict.asks?.[0], command).toMatchObject({ kind: 'secret' })
    }
    expect(classify('echo ${!DATABASE*}').asks?.[0]?.reason).toContain('names of the variables')
  })

  it('forms that change the shell or run a command stay refused', () => {
    for (const command of [
      'set -e',
      'set -o noglob',
      'declare x=1',
      'export X=1',
      'env X=1 ls',
      'printenv -x',
      'typeset -f',
    ]) {
      expect(classify(command).readOnly, command).toBe(false)
    }
  })

  const CREDENTIALS = [
    'DATABASE_URL',
    'SENTRY_DSN',
    'GITHUB_TOKEN',
    'OPENAI_API_KEY',
    'AWS_PROFILE',
    'PGPASSWORD',
    'REDIS_URI',
    'MY_SECRET',
    'STRIPE_APIKEY',
  ]
  const PLAIN = ['HOME', 'PATH', 'TERM', 'KEYBOARD', 'AUTHOR', 'PWD', 'LANG', 'TOKENIZERS_PARALLELISM']
  const FORMS = [
    'echo $N',
    'echo "${N}"',
    'echo "x=$N"',
    'printenv N',
    'declare -p N',
    'cat <<<"$N"',
    'ls $N',
  ]
  it('every credential name in every form asks; plain names do not (seed 121, 300 commands)', () => {
    const random = seededRandom(121)
    for (let index = 0; index < 300; index += 1) {
      const secret = random() < 0.5
      const name = pick(random, secret ? CREDENTIALS : PLAIN)
      const command = pick(random, FORMS).replace('N', name)
      const verdict = classify(command)
      if (command.startsWith('cat <<<')) {
        // A here-string's expansion is not a word the policy tolerates: refused either way.
        expect(verdict.readOnly, command).toBe(false)
        continue
      }
      const credentialAsks = (verdict.asks ?? []).filter((ask) => ask.reason.includes(name))
      expect(verdict.readOnly, `${command}: ${verdict.reason}`).toBe(true)
      expect(credentialAsks.length > 0, command).toBe(secret)
    }
  })
})
