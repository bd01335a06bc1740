import { testHandlerDeps } from '../../ipc/handler-deps'
import { existsSync } from 'node:fs'
import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadWorkspaceTrust } from '../../../../src/main/core/permissions/workspace-trust'
import { createDispatcher } from '../../../../src/main/ipc/dispatcher'
import { mapDomainError } from '../../../../src/main/ipc/domain-errors'
import { createEventHub } from '../../../../src/main/ipc/event-hub'
import { createHandlers } from '../../../../src/main/ipc/handlers'
import { connectLoopback } from '../../../../src/main/transports/loopback'
import { createClient } from '../../../../src/shared/ipc/client'
import { contract } from '../../../../src/shared/ipc/contract'
import { runCliCaptured } from '../../cli/run-cli'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness
afterEach(() => harness?.dispose())

/** A cloned repository that ships its own Shellgate rules. */
async function hostileWorkspace(h: CoreHarness, permissions: Record<string, string[]>) {
  await mkdir(join(h.workspace, '.shellgate'), { recursive: true })
  await writeFile(join(h.workspace, '.shellgate', 'settings.json'), JSON.stringify({ permissions }))
}

describe("a repository's own rules", () => {
  it('never allow a command until the user trusts them; their deny rules always apply', async () => {
    harness = await startCore()
    await harness.core.dispose()
    await hostileWorkspace(harness, { allow: ['*'], deny: ['curl:*'] })
    const core = await harness.restart()
    const sessionId = core.sessions.list()[0]?.id ?? ''

    const running = core.bash.run(sessionId, { command: 'touch pwned' })
    const approval = await waitFor(
      () => core.approvals.list()[0],
      'the card: "*" from the repository must not allow it',
    )
    expect(existsSync(join(harness.workspace, 'pwned'))).toBe(false)
    await core.approvals.answer(approval.id, { kind: 'deny' })
    expect((await running).status).toBe('denied')

    const denied = await core.bash.run(sessionId, { command: 'curl -s http://127.0.0.1:9/' })
    expect(denied).toMatchObject({ status: 'denied', decision: { decidedBy: 'rule.deny' } })

    await core.trust.trust(core.workspace!, core.settings.workspace().permissions.allow)
    expect((await core.bash.run(sessionId, { command: 'touch trusted-now' })).status).toBe('completed')
    expect(existsSync(join(harness.workspace, 'trusted-now'))).toBe(true)
  })

  it('a workspace rule saved by "Always allow" is trusted without another step', async () => {
    harness = await startCore()
    const running = harness.core.bash.run(harness.sessionId, { command: 'touch a' })
    const approval = await waitFor(() => harness.core.approvals.list()[0], 'the card')
    await harness.core.approvals.answer(approval.id, {
      kind: 'always_allow',
      rule: 'touch:*',
      scope: 'workspace',
    })
    await running
    const trustFile = JSON.parse(await readFile(join(harness.home, 'trusted-workspace-rules.json'), 'utf8'))
    expect(trustFile.workspaces[await realpath(harness.workspace)].rules).toEqual(['touch:*'])
    expect((await harness.core.bash.run(harness.sessionId, { command: 'touch b' })).status).toBe('completed')
  })

  it('are ignored by `shellgate exec` too', async () => {
    harness = await startCore()
    await hostileWorkspace(harness, { allow: ['touch:*'] })
    const outcome = await runCliCaptured(
      ['exec', '--json', '--cwd', harness.workspace, '--', 'touch cli-pwned'],
      {
        env: { PATH: process.env.PATH ?? '', SHELLGATE_HOME: harness.home, HOME: harness.home },
      },
    )
    expect(JSON.parse(outcome.stdout).decision).toMatchObject({ outcome: 'ask' })
    expect(existsSync(join(harness.workspace, 'cli-pwned'))).toBe(false)
  })
})

describe('trust and edits of the repository file in a running core', () => {
  async function connectTo(h: CoreHarness) {
    const hub = createEventHub(contract)
    const dispatcher = createDispatcher(contract, createHandlers(h.core, testHandlerDeps()), {
      mapError: mapDomainError,
    })
    return createClient(contract, connectLoopback(dispatcher, hub).transport)
  }
  const settingsFile = (h: CoreHarness) => join(h.workspace, '.shellgate', 'settings.json')
  /** As `git pull` lands a new version of the file. */
  async function pull(h: CoreHarness, allow: string[]) {
    await writeFile(`${settingsFile(h)}.new`, JSON.stringify({ permissions: { allow } }))
    await rename(`${settingsFile(h)}.new`, settingsFile(h))
    await waitFor(
      () => JSON.stringify(h.core.settings.workspace().permissions.allow) === JSON.stringify(allow),
      'the pulled file applied',
    )
  }

  it('an added, edited or deleted rule revokes trust, and the snapshot says what changed', async () => {
    harness = await startCore()
    await hostileWorkspace(harness, { allow: ['touch:*', 'git status'] })
    const { core } = harness
    await waitFor(() => core.settings.workspace().permissions.allow.length > 0, 'the repository file read')
    const client = await connectTo({ ...harness, core })
    const first = await client.request('settings.get', {})
    expect(first.trust).toEqual({
      trusted: false,
      added: ['git status', 'touch:*'],
      removed: [],
      trustedAt: null,
    })
    const trusted = await client.request('settings.trustWorkspaceRules', {})
    expect(trusted.trust).toMatchObject({ trusted: true, added: [], removed: [] })
    expect(trusted.rules.filter((r) => r.scope === 'workspace').every((r) => r.trusted)).toBe(true)
    const sessionId = core.sessions.list()[0]!.id
    expect((await core.bash.run(sessionId, { command: 'touch ok-1' })).status).toBe('completed')

    // Added: every allow rule of the file is off until trusted again, not only the new one.
    await pull({ ...harness, core }, ['touch:*', 'git status', 'curl:*'])
    const added = await client.request('settings.get', {})
    expect(added.trust).toMatchObject({ trusted: false, added: ['curl:*'], removed: [] })
    expect(
      added.rules.filter((r) => r.scope === 'workspace' && r.list === 'allow').map((r) => r.trusted),
    ).toEqual([false, false, false])
    const running = core.bash.run(sessionId, { command: 'touch not-trusted' })
    const approval = await waitFor(() => core.approvals.list()[0], 'a card: the changed file is not trusted')
    await core.approvals.answer(approval.id, { kind: 'deny' })
    expect((await running).status).toBe('denied')
    expect(existsSync(join(harness.workspace, 'not-trusted'))).toBe(false)

    // Edited, then deleted: each is a change the person has not seen.
    await pull({ ...harness, core }, ['touch:*', 'git status:*'])
    expect((await client.request('settings.get', {})).trust).toMatchObject({
      trusted: false,
      added: ['git status:*'],
      removed: ['git status'],
    })
    await pull({ ...harness, core }, ['touch:*'])
    expect((await client.request('settings.get', {})).trust).toMatchObject({
      trusted: false,
      added: [],
      removed: ['git status'],
    })
    // Back to exactly what was accepted: trusted again without a new click.
    await pull({ ...harness, core }, ['git status', 'touch:*'])
    expect((await client.request('settings.get', {})).trust?.trusted).toBe(true)
  })

  it('a rule deleted in the UI and brought back by the file is untrusted', async () => {
    harness = await startCore()
    await hostileWorkspace(harness, { allow: ['touch:*', 'ls'] })
    const { core } = harness
    await waitFor(() => core.settings.workspace().permissions.allow.length > 0, 'the repository file read')
    const client = await connectTo({ ...harness, core })
    await client.request('settings.trustWorkspaceRules', {})
    const removed = await client.request('settings.removeRule', {
      list: 'allow',
      rule: 'touch:*',
      scope: 'workspace',
    })
    expect(removed.trust).toMatchObject({ trusted: true })
    await pull({ ...harness, core }, ['ls', 'touch:*'])
    expect((await client.request('settings.get', {})).trust).toMatchObject({
      trusted: false,
      added: ['touch:*'],
    })
  })

  it('a trust record written by another hub applies without a restart', async () => {
    harness = await startCore()
    await hostileWorkspace(harness, { allow: ['touch:*'] })
    const { core } = harness
    await waitFor(() => core.settings.workspace().permissions.allow.length > 0, 'the repository file read')
    const other = await loadWorkspaceTrust(harness.home)
    const changes = harness.events.length
    await other.trust(harness.workspace, ['touch:*'])
    await waitFor(() => core.trust.state(harness.workspace, ['touch:*']).trusted, 'the trust record re-read')
    expect(harness.events.slice(changes)).toContainEqual({
      name: 'settings.changed',
      payload: { scope: 'workspace' },
    })
  })
})
