import { describe, expect, it } from 'vitest'
import type { PermissionMode } from '../../../../src/shared/settings'
import { loadCommandRegistry } from '../../../../src/main/core/permissions/command-registry'
import { decideBashPermission } from '../../../../src/main/core/permissions/decide-permission'
import type { RuleSet } from '../../../../src/main/core/permissions/permission-types'
import { simple, verdictOf } from './verdict-fixture'

const registry = loadCommandRegistry()
const WORKSPACE_FILE = '/ws/.shellgate/settings.json'
const USER_FILE = '/home/u/.shellgate/settings.json'

function workspace(rules: Partial<RuleSet['rules']>): RuleSet {
  return { source: 'workspace', file: WORKSPACE_FILE, rules: { allow: [], ask: [], deny: [], ...rules } }
}
function user(rules: Partial<RuleSet['rules']>): RuleSet {
  return { source: 'user', file: USER_FILE, rules: { allow: [], ask: [], deny: [], ...rules } }
}
function decide(verdict: ReturnType<typeof simple>, mode: PermissionMode, ruleSets: RuleSet[] = []) {
  return decideBashPermission({ verdict, mode, ruleSets, registry })
}

describe('mode × rule × read-only (seed 003, 判定为只读意味着什么)', () => {
  const readOnly = simple('git status', true)
  const writer = simple('npm test')
  const noRules: RuleSet[] = []
  const allowNpm = [workspace({ allow: ['npm test:*'] })]
  const askGit = [workspace({ ask: ['git status'] })]
  const denyNpm = [user({ deny: ['npm:*'] })]

  it.each([
    // mode, verdict, rules, outcome, basis
    ['build', readOnly, noRules, 'allow', 'mode.build.readOnly'],
    ['build', writer, noRules, 'ask', 'mode.build.highRisk'],
    ['build', writer, allowNpm, 'allow', 'rule.allow'],
    ['build', writer, denyNpm, 'deny', 'rule.deny'],
    ['build', readOnly, askGit, 'ask', 'rule.ask'],
    ['plan', readOnly, noRules, 'allow', 'mode.plan.readOnly'],
    ['plan', writer, noRules, 'deny', 'mode.plan.nonReadOnly'],
    // Plan comes before allow rules: a saved "always allow" does not apply while planning.
    ['plan', writer, allowNpm, 'deny', 'mode.plan.nonReadOnly'],
    // Deny and ask rules come before plan.
    ['plan', writer, denyNpm, 'deny', 'rule.deny'],
    ['plan', readOnly, askGit, 'ask', 'rule.ask'],
    ['yolo', readOnly, noRules, 'allow', 'mode.yolo'],
    ['yolo', writer, noRules, 'allow', 'mode.yolo'],
    ['yolo', writer, allowNpm, 'allow', 'mode.yolo'],
    // Beyond the seed: a deny or ask rule still stops yolo.
    ['yolo', writer, denyNpm, 'deny', 'rule.deny'],
    ['yolo', readOnly, askGit, 'ask', 'rule.ask'],
  ] as const)('%s, %o, %j → %s (%s)', (mode, verdict, rules, outcome, basis) => {
    const decision = decide(verdict, mode, [...rules])
    expect(decision.outcome).toBe(outcome)
    expect(decision.basis).toBe(basis)
    expect(decision.mode).toBe(mode)
    expect(decision.readOnly).toBe(verdict.readOnly)
  })

  it('records which rule decided and which file it lives in', () => {
    const decision = decide(writer, 'build', [user({}), workspace({ allow: ['npm test:*'] })])
    expect(decision.rules).toEqual([
      {
        behavior: 'allow',
        rule: 'npm test:*',
        kind: 'prefix',
        source: 'workspace',
        file: WORKSPACE_FILE,
        matched: 'npm test',
      },
    ])
    expect(decision.reason).toBe("Allowed by the repository's rule `npm test:*`.")
    const denied = decide(writer, 'build', denyNpm)
    expect(denied.rules[0]).toMatchObject({
      behavior: 'deny',
      rule: 'npm:*',
      source: 'user',
      file: USER_FILE,
    })
    expect(denied.reason).toBe('Denied by your rule `npm:*` (all workspaces).')
  })
})

describe('rule matching', () => {
  const allow = (rule: string) => [workspace({ allow: [rule] })]

  it.each([
    ['npm test', 'npm test:*', 'allow'],
    ['npm test --watch', 'npm test:*', 'allow'],
    // Word boundary: `npm test:*` is not `npm testing`.
    ['npm testing', 'npm test:*', 'ask'],
    ['npm test', 'npm test', 'allow'],
    ['npm test --watch', 'npm test', 'ask'],
    ['npm test --watch', 'npm *', 'allow'],
    ['npx npm test', 'npm *', 'ask'],
    ['git push origin main', 'git push origin *', 'allow'],
    ['git push upstream main', 'git push origin *', 'ask'],
    ['npm test', '*', 'allow'],
    // The suggestion's action path: options of the registry are looked through.
    ['git -C sub commit -m x', 'git commit:*', 'allow'],
    ['pnpm --dir app run lint --fix', 'pnpm run lint:*', 'allow'],
    ['pnpm --dir app run lint --fix', 'pnpm run:*', 'allow'],
    ['pnpm --dir app run test', 'pnpm run lint:*', 'ask'],
    // ...but never options that change which program git runs.
    ['git -c core.pager=evil commit', 'git commit:*', 'ask'],
    ['make -f /tmp/evil.mk build', 'make build:*', 'ask'],
    ['make -C sub build', 'make build:*', 'allow'],
  ])('%s with allow %s → %s', (command, rule, outcome) => {
    expect(decide(simple(command), 'build', allow(rule)).outcome).toBe(outcome)
  })

  it('an allow rule must cover every non-read-only command; read-only ones are exempt', () => {
    const verdict = verdictOf([{ argv: ['cd', 'app'], readOnly: true }, { argv: ['npm', 'test'] }])
    expect(decide(verdict, 'build', allow('npm test:*'))).toMatchObject({
      outcome: 'allow',
      basis: 'rule.allow',
    })
    const two = verdictOf([{ argv: ['npm', 'test'] }, { argv: ['rm', '-rf', 'dist'] }])
    const partial = decide(two, 'build', allow('npm test:*'))
    expect(partial.outcome).toBe('ask')
    expect(partial.nearMiss).toMatchObject({
      rule: 'npm test:*',
      relation: 'partial',
      source: 'workspace',
      file: WORKSPACE_FILE,
    })
    expect(partial.nearMiss?.explanation).toContain('not "rm -rf dist"')
    const both = decide(two, 'build', [
      workspace({ allow: ['npm test:*'] }),
      user({ allow: ['rm -rf dist'] }),
    ])
    expect(both.outcome).toBe('allow')
    expect(both.rules.map((r) => [r.rule, r.source])).toEqual([
      ['npm test:*', 'workspace'],
      ['rm -rf dist', 'user'],
    ])
  })

  it('deny and ask rules match any command, through wrappers', () => {
    const chain = verdictOf([
      { argv: ['echo', 'hi'], readOnly: true },
      { argv: ['sudo', '-u', 'root', 'nohup', 'rm', '-rf', '/'] },
    ])
    expect(decide(chain, 'yolo', [workspace({ deny: ['rm:*'] })])).toMatchObject({
      outcome: 'deny',
      basis: 'rule.deny',
    })
    expect(decide(chain, 'build', [workspace({ ask: ['rm -rf /'] })])).toMatchObject({
      outcome: 'ask',
      basis: 'rule.ask',
    })
    const env = verdictOf([{ argv: ['env', 'A=1', 'rm', 'x'] }])
    expect(decide(env, 'yolo', [user({ deny: ['rm:*'] })]).outcome).toBe('deny')
  })

  it('deny rules find a dynamic or unanalysed command by its words', () => {
    const dynamic = verdictOf([{ argv: null, text: 'rm -rf $HOME' }], { permissionSafe: false })
    expect(decide(dynamic, 'yolo', [user({ deny: ['rm:*'] })]).outcome).toBe('deny')
    const subshell = verdictOf([], { permissionSafe: false, command: '(cd /; rm -rf tmp)' })
    expect(decide(subshell, 'yolo', [user({ deny: ['rm:*'] })]).outcome).toBe('deny')
    expect(decide(subshell, 'yolo', [user({ deny: ['rmdir:*'] })]).outcome).toBe('allow')
  })

  it('not permission-safe, redirects and non-static assignments match exact rules only', () => {
    const redirect = verdictOf([{ argv: ['npm', 'test'], redirects: [{ operator: '>', target: 'out.txt' }] }])
    const decision = decide(redirect, 'build', allow('npm test:*'))
    expect(decision.outcome).toBe('ask')
    expect(decision.nearMiss).toMatchObject({ rule: 'npm test:*', relation: 'exact_only' })
    expect(decision.nearMiss?.explanation).toContain('has a redirect (>)')
    expect(decide(redirect, 'build', allow('npm test >out.txt')).outcome).toBe('allow')

    const dynamicEnv = verdictOf([{ argv: ['npm', 'test'], env: [{ name: 'X', value: null }] }])
    expect(decide(dynamicEnv, 'build', allow('npm test:*')).outcome).toBe('ask')
    const unsafe = verdictOf([{ argv: null, text: 'npm test $(id)' }], { permissionSafe: false })
    expect(decide(unsafe, 'build', allow('npm *')).outcome).toBe('ask')
    expect(decide(unsafe, 'build', allow('npm test $(id)')).outcome).toBe('allow')
  })

  it('descriptor duplication and /dev/null write no file, so prefix rules still match', () => {
    const quiet = verdictOf([
      {
        argv: ['npm', 'test'],
        redirects: [
          { operator: '2>&', target: '1' },
          { operator: '>', target: '/dev/null' },
        ],
      },
    ])
    expect(decide(quiet, 'build', allow('npm test:*')).outcome).toBe('allow')
  })

  it('an assignment that can load code is part of what the rule must name', () => {
    const loader = verdictOf([
      { argv: ['npm', 'test'], env: [{ name: 'NODE_OPTIONS', value: '--require=./evil.js' }] },
    ])
    expect(decide(loader, 'build', allow('npm test:*')).outcome).toBe('ask')
    const cosmetic = verdictOf([{ argv: ['npm', 'test'], env: [{ name: 'NO_COLOR', value: '1' }] }])
    expect(decide(cosmetic, 'build', allow('npm test:*')).outcome).toBe('allow')
  })

  it('says which allow rule almost matched', () => {
    const planned = decide(simple('npm test'), 'plan', allow('npm test:*'))
    expect(planned.nearMiss).toMatchObject({
      rule: 'npm test:*',
      relation: 'plan_mode',
      file: WORKSPACE_FILE,
    })
    const other = decide(simple('git push origin main'), 'build', allow('git commit:*'))
    expect(other.nearMiss).toMatchObject({ rule: 'git commit:*', relation: 'same_command' })
    expect(decide(simple('cargo build'), 'build', allow('git commit:*')).nearMiss).toBeNull()
  })

  it('a rule that does not parse matches nothing instead of throwing', () => {
    expect(decide(simple('npm test'), 'build', allow('npm "test:*')).outcome).toBe('ask')
  })
})
