import { mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { localRulesFile } from '../../../../src/main/core/settings/local-workspace-rules'
import { afterEach, describe, expect, it } from 'vitest'
import { type CoreHarness, startCore, waitFor } from '../workbench/core-harness'

let harness: CoreHarness
let otherWorkspace: string | undefined
afterEach(async () => {
  await harness?.dispose()
  if (otherWorkspace) await rm(otherWorkspace, { recursive: true, force: true })
  otherWorkspace = undefined
})

/** As an editor saves: a new file renamed over the old one (a new inode). */
async function saveLikeAnEditor(path: string, text: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true })
  await writeFile(`${path}.swp`, text)
  await rename(`${path}.swp`, path)
}

const eventsNamed = (name: string) => harness.events.filter((event) => event.name === name)

describe('a running core and its settings files on disk', () => {
  it("applies a hand edit of this machine's rules for the workspace (SHELLGATE_HOME/workspaces)", async () => {
    harness = await startCore()
    const { core, sessionId } = harness
    expect((await core.bash.check(sessionId, 'rm -rf ./nothing')).wouldDo).toBe('ask')
    await saveLikeAnEditor(core.settings.localFile, JSON.stringify({ permissions: { deny: ['rm:*'] } }))
    await waitFor(
      async () => (await core.bash.check(sessionId, 'rm -rf ./nothing')).wouldDo === 'deny',
      'the local deny rule applied',
    )
  })

  it("applies an edit of another workspace's files for the sessions there, without a restart", async () => {
    harness = await startCore()
    const { core } = harness
    otherWorkspace = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-other-ws-')))
    const agent = (await core.sessions.create({ title: 'agent', workspace: otherWorkspace })).id
    // The first decision opens (and starts watching) that workspace's store.
    expect((await core.bash.check(agent, 'curl http://127.0.0.1:9/')).wouldDo).toBe('ask')
    await saveLikeAnEditor(
      join(otherWorkspace, '.shellgate', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['curl:*'] } }),
    )
    await waitFor(
      async () => (await core.bash.check(agent, 'curl http://127.0.0.1:9/')).wouldDo === 'deny',
      "the other workspace's deny rule applied",
    )
    await saveLikeAnEditor(
      localRulesFile(harness.home, otherWorkspace),
      JSON.stringify({ permissions: { deny: ['wget:*'] } }),
    )
    await waitFor(
      async () => (await core.bash.check(agent, 'wget http://127.0.0.1:9/')).wouldDo === 'deny',
      "the other workspace's local deny rule applied",
    )
    // The core's own workspace is not touched by either file.
    expect((await core.bash.check(harness.sessionId, 'curl http://127.0.0.1:9/')).wouldDo).toBe('ask')
  })

  it('applies an edit of the user settings and says so with settings.changed', async () => {
    harness = await startCore()
    const { core } = harness
    expect(core.settings.user().permissions.mode).toBe('build')
    await saveLikeAnEditor(
      core.settings.userFile,
      JSON.stringify({ permissions: { mode: 'plan', deny: ['rm:*'] } }),
    )
    await waitFor(
      () => eventsNamed('settings.changed').find((e) => (e.payload as { scope: string }).scope === 'user'),
      'settings.changed for the user file',
    )
    expect(core.settings.user().permissions).toMatchObject({ mode: 'plan', deny: ['rm:*'] })
    // The decision uses the new rule at once.
    const denied = await core.bash.run(harness.sessionId, { command: 'rm -rf ./nothing' })
    expect(denied).toMatchObject({ status: 'denied', decision: { decidedBy: 'rule.deny' } })
  })

  it('reports a bad edit with a notice naming the file and keeps the last good settings', async () => {
    harness = await startCore()
    const { core } = harness
    await saveLikeAnEditor(core.settings.userFile, JSON.stringify({ permissions: { mode: 'plan' } }))
    await waitFor(() => core.settings.user().permissions.mode === 'plan', 'the good edit applied')
    await writeFile(core.settings.userFile, JSON.stringify({ permissions: { mode: 'reckless' } }))
    const notice = await waitFor(() => eventsNamed('app.notice')[0], 'a notice about the bad edit')
    expect(notice.payload).toEqual({
      level: 'warning',
      message: expect.stringMatching(
        /settings\.json does not match the settings schema: permissions\.mode: .*the last good settings stay in force/,
      ),
    })
    expect((notice.payload as { message: string }).message).toContain(core.settings.userFile)
    expect(core.settings.user().permissions.mode).toBe('plan')
    expect(core.settings.warnings()).toEqual([expect.objectContaining({ file: core.settings.userFile })])
    // Fixed on disk: the warning goes away and the fix applies.
    await saveLikeAnEditor(core.settings.userFile, JSON.stringify({ permissions: { mode: 'yolo' } }))
    await waitFor(() => core.settings.user().permissions.mode === 'yolo', 'the fixed file applied')
    expect(core.settings.warnings()).toEqual([])
  })

  it('a file fixed back to its last good content says so with settings.changed, so the warning goes (issue 22.7)', async () => {
    harness = await startCore()
    const { core } = harness
    await saveLikeAnEditor(core.settings.userFile, JSON.stringify({ permissions: { mode: 'plan' } }))
    await waitFor(() => core.settings.user().permissions.mode === 'plan', 'the good edit applied')
    await writeFile(core.settings.userFile, '{ "permissions": { "mode": "plan" ')
    await waitFor(() => core.settings.warnings().length === 1, 'the bad edit reported')
    const changesBefore = eventsNamed('settings.changed').length
    await saveLikeAnEditor(core.settings.userFile, JSON.stringify({ permissions: { mode: 'plan' } }))
    await waitFor(() => core.settings.warnings().length === 0, 'the warning cleared')
    await waitFor(
      () => eventsNamed('settings.changed').length > changesBefore,
      'settings.changed for the cleared warning, so every window re-reads it',
    )
  })

  it('picks up a workspace .shellgate folder created after the start', async () => {
    harness = await startCore()
    const { core } = harness
    const changes = eventsNamed('settings.changed').length
    await saveLikeAnEditor(core.settings.workspaceFile, JSON.stringify({ permissions: { deny: ['curl:*'] } }))
    await waitFor(() => core.settings.workspace().permissions.deny.length > 0, 'the workspace file applied')
    expect(core.settings.workspace().permissions.deny).toEqual(['curl:*'])
    expect(eventsNamed('settings.changed').length).toBeGreaterThan(changes)
    // A second edit in the now-watched folder (as a git pull would make).
    await saveLikeAnEditor(core.settings.workspaceFile, JSON.stringify({ permissions: { deny: ['wget:*'] } }))
    await waitFor(() => core.settings.workspace().permissions.deny[0] === 'wget:*', 'the second edit applied')
  })

  it('its own writes are seen as already applied: no notice, nothing re-applied', async () => {
    harness = await startCore()
    const { core } = harness
    await core.settings.updateUser({ permissions: { mode: 'plan' } })
    await core.settings.addRule({ scope: 'workspace', list: 'deny', rule: 'rm:*' })
    const changesAfterWrites = eventsNamed('settings.changed').length
    // A later hand edit is applied; by then the events of the hub's own writes have been handled.
    await saveLikeAnEditor(
      core.settings.userFile,
      JSON.stringify({ ...core.settings.user(), shell: { kind: 'zsh' } }),
    )
    await waitFor(() => core.settings.user().shell.kind === 'zsh', 'the hand edit applied')
    expect(eventsNamed('settings.changed').slice(changesAfterWrites)).toEqual([
      { name: 'settings.changed', payload: { scope: 'user' } },
    ])
    expect(eventsNamed('app.notice')).toEqual([])
    expect(core.settings.workspace().permissions.deny).toEqual(['rm:*'])
  })
})
