import { describe, expect, it } from 'vitest'
import { tmpdir } from 'node:os'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { loadCommandRegistry } from '../../../../src/main/core/permissions/command-registry'
import { decideBashPermission } from '../../../../src/main/core/permissions/decide-permission'
import { resolveStablePrefix } from '../../../../src/main/core/permissions/stable-prefix'
import { suggestRules } from '../../../../src/main/core/permissions/suggest-rules'
import { simple, verdictOf } from './verdict-fixture'

const registry = loadCommandRegistry()
const words = (text: string) => text.split(' ')

describe('always-allow suggestions (seed 003 table)', () => {
  it.each([
    ['pnpm --dir app run lint', 'pnpm run lint:*'],
    ['git -C sub commit -m x', 'git commit:*'],
    ['python3 -m pytest tests', 'python3 -m pytest:*'],
    ['rm -rf dist', 'rm -rf dist'],
    ['npm run build', 'npm run build:*'],
    ['npm install lodash', 'npm install:*'],
    ['yarn run test --watch', 'yarn run test:*'],
    ['bun run dev', 'bun run dev:*'],
    ['deno task start --port 3', 'deno task start:*'],
    ['make -C sub build', 'make build:*'],
    ['make CC=clang build', 'make build:*'],
    ['just deploy prod', 'just deploy:*'],
    ['aws s3 cp a s3://b/a', 'aws s3 cp:*'],
    ['aws --profile dev ec2 describe-instances', 'aws ec2 describe-instances:*'],
    ['gcloud compute instances create vm1', 'gcloud compute instances create:*'],
    ['git push origin main', 'git push:*'],
    ['cargo build --release', 'cargo build:*'],
    ['docker build -t app .', 'docker build:*'],
    ['mkdir -p build/out', 'mkdir:*'],
    ['sudo npm install -g x', 'sudo npm install:*'],
    ['time nohup npm test', 'time nohup npm test:*'],
  ])('%s → %s', (command, rule) => {
    expect(suggestRules(simple(command), registry)).toEqual([rule])
  })

  it.each([
    // High-risk roots never get a prefix.
    'chmod -R 777 .',
    'dd if=/dev/zero of=x',
    'bash -c x',
    'sh script.sh',
    'mkfs.ext4 /dev/sda',
    // Program-running roots: `find:*` would also cover `find -exec`.
    'find . -name x -delete',
    'xargs rm',
    'node build.js',
    // The root alone of a command with subcommands, or unknown options before the action.
    'git --frobnicate push',
    'git -c core.pager=evil commit',
    'git -ccore.pager=evil commit',
    'make -f /tmp/evil.mk build',
    'make --file=/tmp/evil.mk build',
    'npm --script-shell=/tmp/x run build',
    'cargo --config build.rustc-wrapper="/tmp/x" build',
    'python3 script.py',
    'python3 -c print(1)',
    'npm run',
    'make',
    'aws s3',
    // An option the registry does not know may swallow the next word: no guessing.
    'aws --region eu-west-1 ec2 describe-instances',
    './scripts/release.sh patch',
    '/bin/rm -rf x',
    'sudo -s',
    'sudo env A=1 nohup npm test',
    'env A=* npm test',
    'env -S rm',
  ])('%s → the exact command', (command) => {
    expect(suggestRules(simple(command), registry)).toEqual([command])
  })

  it('a suggested rule always allows the command it was suggested for', () => {
    for (const command of [
      'pnpm --dir app run lint',
      'git -C sub commit -m x',
      'python3 -m pytest tests',
      'rm -rf dist',
    ]) {
      const verdict = simple(command)
      const [rule] = suggestRules(verdict, registry)
      const decision = decideBashPermission({
        verdict,
        mode: 'build',
        registry,
        ruleSets: [{ source: 'session', file: null, rules: { allow: [rule as string], ask: [], deny: [] } }],
      })
      expect(decision.outcome, `${command} with ${rule}`).toBe('allow')
    }
  })

  it('one prefix per non-read-only command, read-only ones exempt, duplicates once', () => {
    const verdict = verdictOf([
      { argv: words('cd app'), readOnly: true },
      { argv: words('npm test') },
      { argv: words('git add -A') },
      { argv: words('npm test --watch') },
    ])
    expect(suggestRules(verdict, registry)).toEqual(['npm test:*', 'git add:*'])
  })

  it('more than five prefixes, or one command without a prefix, falls back to the exact line', () => {
    const six = verdictOf(
      ['build', 'test', 'lint', 'pack', 'publish', 'audit'].map((s) => ({ argv: ['npm', s] })),
    )
    expect(suggestRules(six, registry)).toEqual([six.command])
    const mixed = verdictOf([{ argv: words('npm test') }, { argv: words('rm -rf dist') }])
    expect(suggestRules(mixed, registry)).toEqual(['npm test && rm -rf dist'])
  })

  it('never offers a prefix that would cover a redirect, a dynamic word or a non-static assignment', () => {
    const redirect = verdictOf([
      { argv: words('npm test'), redirects: [{ operator: '>', target: 'out.txt' }] },
    ])
    expect(suggestRules(redirect, registry)).toEqual(['npm test >out.txt'])
    const dynamic = verdictOf([{ argv: null, text: 'npm test $X' }], { permissionSafe: false })
    expect(suggestRules(dynamic, registry)).toEqual(['npm test $X'])
    const env = verdictOf([{ argv: words('npm test'), env: [{ name: 'NODE_OPTIONS', value: null }] }])
    expect(suggestRules(env, registry)).toEqual([env.command])
  })

  it('keeps assignments that could change behaviour in the rule, drops cosmetic ones', () => {
    const cosmetic = verdictOf([{ argv: words('npm test'), env: [{ name: 'CI', value: '1' }] }])
    expect(suggestRules(cosmetic, registry)).toEqual(['npm test:*'])
    const loader = verdictOf([
      { argv: words('npm test'), env: [{ name: 'NODE_OPTIONS', value: '--require=./x.js' }] },
    ])
    expect(suggestRules(loader, registry)).toEqual(['NODE_OPTIONS=--require=./x.js npm test:*'])
  })

  it('read-only commands need no rule; over-long commands get none', () => {
    expect(suggestRules(simple('git status', true), registry)).toEqual([])
    expect(
      suggestRules(
        verdictOf([{ argv: null, text: `rm ${'x'.repeat(2_100)}` }], { permissionSafe: false }),
        registry,
      ),
    ).toEqual([])
  })

  it('walks persistent options of the root on subcommands and stops at --', () => {
    expect(resolveStablePrefix(words('pnpm -C app run lint'), registry)).toEqual(['pnpm', 'run', 'lint'])
    expect(resolveStablePrefix(words('git -- commit'), registry)).toBeNull()
  })
})

describe('a reader refused for one of its flags gets only the exact rule (review finding 5)', () => {
  it.each([
    'sort -o out in',
    'sort -uo out in',
    'shuf -o out f',
    'uniq in out',
    'tree -o out',
    'rg --pre ./x pattern',
    'date -s now',
    'xxd in out',
    "jq -n 'env'",
    'git status --output=x',
    'git -C sub diff --output=x',
    'sudo sort -o /etc/x in',
    'command sort -o out in',
  ])('%s', (command) => {
    const verdict = classifyCommand(command, { cwd: tmpdir(), platform: 'linux' })
    expect(verdict.readOnly).toBe(false)
    expect(suggestRules(verdict, registry)).toEqual([command])
  })

  it('a writer without a read-only table still gets its prefix', () => {
    const verdict = classifyCommand('npm test && sort -o out in', { cwd: tmpdir(), platform: 'linux' })
    expect(suggestRules(verdict, registry)).toEqual(['npm test && sort -o out in'])
    expect(suggestRules(classifyCommand('npm test', { cwd: tmpdir(), platform: 'linux' }), registry)).toEqual(
      ['npm test:*'],
    )
  })
})

describe('a line that does not parse gets no suggestion', () => {
  it.each(['echo "unbalanced', "cat 'x", 'ls $(', 'if then'])('%s', (command) => {
    const verdict = classifyCommand(command, { cwd: tmpdir(), platform: 'linux' })
    expect(verdict.parsed).toBe(false)
    expect(suggestRules(verdict, registry)).toEqual([])
  })
})
