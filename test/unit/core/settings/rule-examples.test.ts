import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSettingsStore } from '../../../../src/main/core/settings/settings-store'

// Issue 22.8: rules carry examples that must and must not match, checked when the rules load; an
// example that fails is an error naming the rule, and the rule does not apply.

let home: string
let workspace: string
beforeEach(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'sg-examples-home-')))
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'sg-examples-ws-')))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

const writeWorkspaceSettings = async (permissions: object) => {
  await mkdir(join(workspace, '.shellgate'), { recursive: true })
  await writeFile(join(workspace, '.shellgate', 'settings.json'), JSON.stringify({ permissions }))
}

describe('rule examples', () => {
  it('examples that hold load the rules', async () => {
    await writeWorkspaceSettings({
      allow: ['npm test:*'],
      deny: ['git push --force:*'],
      examples: {
        'npm test:*': {
          matches: ['npm test', 'cd app && npm test -- --ci'],
          doesNotMatch: ['npm install', 'npm test && rm -rf /'],
        },
        'git push --force:*': {
          matches: ['git push --force origin main', 'sudo git push --force'],
          doesNotMatch: ['git push'],
        },
      },
    })
    const store = await openSettingsStore({ home, workspace })
    expect(store.warnings()).toEqual([])
    expect(store.rules().map((rule) => rule.rule)).toEqual(
      expect.arrayContaining(['npm test:*', 'git push --force:*']),
    )
  })

  it('an allow rule that matches what it must not is an error naming the rule, and it does not apply', async () => {
    await writeWorkspaceSettings({
      allow: ['git *'],
      examples: { 'git *': { matches: ['git status'], doesNotMatch: ['git push origin main'] } },
    })
    const store = await openSettingsStore({ home, workspace })
    expect(store.warnings()).toEqual([
      expect.objectContaining({
        file: join(workspace, '.shellgate', 'settings.json'),
        reason: expect.stringContaining(
          'permissions.examples: the allow rule "git *" matches "git push origin main", which its examples say it must not',
        ),
      }),
    ])
    expect(store.rules().map((rule) => rule.rule)).not.toContain('git *')
  })

  it('a deny rule that misses what it must match, or examples for a rule that is not there, are errors too', async () => {
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['rm -rf /:*'], examples: { 'rm -rf /:*': { matches: ['rm -rf ~'] } } },
      }),
    )
    let store = await openSettingsStore({ home, workspace })
    expect(store.warnings()[0]?.reason).toContain(
      'the deny rule "rm -rf /:*" does not match "rm -rf ~", which its examples say it must',
    )
    await writeWorkspaceSettings({
      allow: ['make:*'],
      examples: { 'make test:*': { matches: ['make test'] } },
    })
    store = await openSettingsStore({ home, workspace })
    expect(store.warnings().map((warning) => warning.reason)).toContainEqual(
      expect.stringContaining('permissions.examples: "make test:*" is not a rule in allow, ask or deny'),
    )
  })

  it('a rule the Settings form refuses (":*" alone) is refused in the file too, not skipped silently', async () => {
    await writeWorkspaceSettings({ allow: ['npm test:*'], deny: [':*'] })
    const store = await openSettingsStore({ home, workspace })
    expect(store.warnings()[0]?.reason).toContain('permissions.deny: rule ":*" has no command before ":*"')
  })
})
