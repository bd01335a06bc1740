import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  decideBashPermission,
  loadCommandRegistry,
  ruleSetsFromScoped,
  summarizeDecision,
  validateBashRule,
} from '../../../../src/main/core/permissions'
import { openSettingsStore } from '../../../../src/main/core/settings/settings-store'
import { simple } from './verdict-fixture'

describe('rules from the settings files decide, naming their file', () => {
  let root: string
  let home: string
  let workspace: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shellgate-rulesets-'))
    home = join(root, 'home')
    workspace = join(root, 'ws')
    await mkdir(home)
    await mkdir(join(workspace, '.shellgate'), { recursive: true })
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({ permissions: { mode: 'build', allow: ['cargo build:*'], ask: [], deny: ['rm:*'] } }),
    )
    await writeFile(
      join(workspace, '.shellgate', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['npm test:*'], ask: ['git push:*'], deny: [] } }),
    )
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('user and workspace files, and a session rule', async () => {
    const store = await openSettingsStore({ home, workspace, validateRule: validateBashRule })
    await store.addRule({ scope: 'session', sessionId: 's1', list: 'allow', rule: 'make build:*' })
    const ruleSets = ruleSetsFromScoped(store.rules('s1'))
    const userFile = join(home, 'settings.json')
    const workspaceFile = join(workspace, '.shellgate', 'settings.json')
    expect(ruleSets).toEqual([
      { source: 'session', file: null, rules: { allow: ['make build:*'], ask: [], deny: [] } },
      {
        source: 'workspace',
        file: workspaceFile,
        rules: { allow: ['npm test:*'], ask: ['git push:*'], deny: [] },
      },
      { source: 'user', file: userFile, rules: { allow: ['cargo build:*'], ask: [], deny: ['rm:*'] } },
    ])
    const registry = loadCommandRegistry()
    const decide = (command: string) =>
      decideBashPermission({ verdict: simple(command), mode: 'build', ruleSets, registry })
    expect(summarizeDecision(decide('npm test'))).toEqual({
      outcome: 'allow',
      decidedBy: 'rule.allow',
      reason: "Allowed by the repository's rule `npm test:*`.",
      rule: 'npm test:*',
      ruleFile: workspaceFile,
    })
    expect(summarizeDecision(decide('rm -rf x'))).toMatchObject({
      outcome: 'deny',
      rule: 'rm:*',
      ruleFile: userFile,
    })
    expect(summarizeDecision(decide('git push origin'))).toMatchObject({
      outcome: 'ask',
      decidedBy: 'rule.ask',
      ruleFile: workspaceFile,
    })
    expect(summarizeDecision(decide('make build'))).toMatchObject({
      outcome: 'allow',
      rule: 'make build:*',
      ruleFile: 'session rules',
    })
    expect(summarizeDecision(decide('cargo test'))).toMatchObject({
      outcome: 'ask',
      decidedBy: 'mode.build.highRisk',
      rule: null,
      ruleFile: null,
    })
  })

  it('the store refuses a rule the permissions room cannot parse', async () => {
    const store = await openSettingsStore({ home, workspace, validateRule: validateBashRule })
    await expect(store.addRule({ scope: 'workspace', list: 'allow', rule: ':*' })).rejects.toThrow(
      'no command before ":*"',
    )
  })
})
