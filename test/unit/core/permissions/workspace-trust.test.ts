import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  allowRulesHash,
  loadWorkspaceTrust,
  WORKSPACE_TRUST_FILE,
} from '../../../../src/main/core/permissions/workspace-trust'

let root: string
let home: string
let workspace: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellgate-trust-'))
  home = join(root, 'home')
  workspace = join(root, 'repo')
  await mkdir(workspace)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('trust is the exact content of the accepted allow rules', () => {
  it('any added, edited or deleted rule makes the list untrusted, and says what differs', async () => {
    const trust = await loadWorkspaceTrust(home)
    const accepted = ['git status', 'npm test:*']
    expect(trust.state(workspace, accepted)).toMatchObject({
      trusted: false,
      added: accepted,
      trustedAt: null,
    })
    await trust.trust(workspace, accepted)
    expect(trust.state(workspace, accepted)).toMatchObject({ trusted: true, added: [], removed: [] })
    // Order and repeats are not content.
    expect(trust.state(workspace, ['npm test:*', 'git status', 'git status']).trusted).toBe(true)

    expect(trust.state(workspace, [...accepted, 'curl:*'])).toMatchObject({
      trusted: false,
      added: ['curl:*'],
      removed: [],
    })
    expect(trust.state(workspace, ['git status', 'npm:*'])).toMatchObject({
      trusted: false,
      added: ['npm:*'],
      removed: ['npm test:*'],
    })
    expect(trust.state(workspace, ['git status'])).toMatchObject({
      trusted: false,
      added: [],
      removed: ['npm test:*'],
    })
    expect(trust.trustedRules(workspace, [...accepted, 'curl:*'])).toEqual(new Set())
    expect(trust.trustedRules(workspace, accepted)).toEqual(new Set(accepted))
  })

  it('a rule deleted through Shellgate and brought back by the file is untrusted', async () => {
    const trust = await loadWorkspaceTrust(home)
    await trust.trust(workspace, ['git status', 'touch:*'])
    await trust.amend(workspace, { remove: ['touch:*'] })
    expect(trust.state(workspace, ['git status']).trusted).toBe(true)
    expect(trust.state(workspace, ['git status', 'touch:*'])).toMatchObject({
      trusted: false,
      added: ['touch:*'],
    })
  })

  it('a rule the person adds keeps a trusted list trusted, and an untrusted one untrusted', async () => {
    const trust = await loadWorkspaceTrust(home)
    await trust.amend(workspace, { add: ['ls'] })
    expect(trust.state(workspace, ['ls']).trusted).toBe(true)
    // The repository's own `*` is still not accepted when the person adds a rule next to it.
    await trust.amend(workspace, { add: ['pwd'] })
    expect(trust.state(workspace, ['*', 'ls', 'pwd'])).toMatchObject({ trusted: false, added: ['*'] })
  })

  it('is keyed by the real path, stored with the rule list and its hash, and merged across writers', async () => {
    const link = join(root, 'link-to-repo')
    await symlink(workspace, link)
    const a = await loadWorkspaceTrust(home)
    const b = await loadWorkspaceTrust(home)
    const other = join(root, 'other')
    await mkdir(other)
    await a.trust(link, ['make'])
    // b never saw a's record; its write keeps it.
    await b.trust(other, ['cargo test'])
    const stored = JSON.parse(await readFile(join(home, WORKSPACE_TRUST_FILE), 'utf8'))
    expect(stored.version).toBe(2)
    expect(stored.workspaces[workspace]).toMatchObject({ rules: ['make'], hash: allowRulesHash(['make']) })
    expect(stored.workspaces[other].rules).toEqual(['cargo test'])
    expect(b.state(workspace, ['make']).trusted).toBe(true)
    const fresh = await loadWorkspaceTrust(home)
    expect(fresh.state(link, ['make']).trusted).toBe(true)
  })

  it('reload picks up records written by another writer; a damaged file trusts nothing', async () => {
    const a = await loadWorkspaceTrust(home)
    const b = await loadWorkspaceTrust(home)
    await a.trust(workspace, ['make'])
    expect(b.state(workspace, ['make']).trusted).toBe(false)
    expect(await b.reload()).toBe(true)
    expect(b.state(workspace, ['make']).trusted).toBe(true)
    await writeFile(join(home, WORKSPACE_TRUST_FILE), '{"version": 2, "workspaces": ')
    expect(await b.reload()).toBe(true)
    expect(b.state(workspace, ['make']).trusted).toBe(false)
  })

  it('carries version 1 records over as the accepted list', async () => {
    await mkdir(home)
    const file = join(workspace, '.shellgate', 'settings.json')
    await writeFile(
      join(home, WORKSPACE_TRUST_FILE),
      JSON.stringify({ version: 1, files: { [file]: ['npm test:*', 'git status'] } }),
    )
    const trust = await loadWorkspaceTrust(home)
    expect(trust.state(workspace, ['git status', 'npm test:*']).trusted).toBe(true)
    expect(trust.state(workspace, ['git status', 'npm test:*', '*'])).toMatchObject({
      trusted: false,
      added: ['*'],
    })
  })
})
