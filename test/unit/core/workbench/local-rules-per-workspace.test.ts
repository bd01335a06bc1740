import { existsSync } from 'node:fs'
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { localRulesFile } from '../../../../src/main/core/settings/local-workspace-rules'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness
let otherWorkspace: string

afterEach(async () => {
  await harness?.dispose()
  if (otherWorkspace) await rm(otherWorkspace, { recursive: true, force: true })
})

const pendingFor = (command: string) =>
  waitFor(() => harness.core.approvals.list().find((a) => a.command === command), `the card for ${command}`)

describe("this machine's workspace rules belong to their own workspace (hub sessions in other folders)", () => {
  it('"Always allow" from a session in another folder is kept for that folder only, and answers only its calls', async () => {
    harness = await startCore()
    const { core, sessionId, home } = harness
    otherWorkspace = await realpath(await mkdtemp(join(tmpdir(), 'shellgate-other-ws-')))
    const agent = (await core.sessions.create({ title: 'agent', workspace: otherWorkspace })).id
    await core.settings.updateUser({ sandbox: { mode: 'off' } })

    const inOther = core.bash.run(agent, { command: 'touch made-by-agent' })
    const inMain = core.bash.run(sessionId, { command: 'touch made-here' })
    const card = await pendingFor('touch made-by-agent')
    await pendingFor('touch made-here')
    const answered = await core.approvals.answer(card.id, {
      kind: 'always_allow',
      rule: 'touch:*',
      scope: 'local',
    })
    // The main workspace's call is not covered: the rule was saved for the other folder.
    expect(answered).toMatchObject({ ok: true, alsoAnswered: 0 })
    expect((await inOther).status).toBe('completed')
    expect(existsSync(join(otherWorkspace, 'made-by-agent'))).toBe(true)

    const otherFile = localRulesFile(home, otherWorkspace)
    expect(JSON.parse(await readFile(otherFile, 'utf8')).permissions.allow).toEqual(['touch:*'])
    expect(core.settings.rules(sessionId).some((rule) => rule.rule === 'touch:*')).toBe(false)
    expect(existsSync(core.settings.localFile)).toBe(false)
    expect(core.approvals.list().map((a) => a.command)).toEqual(['touch made-here'])

    // The next call in the other folder runs under its own rule without asking.
    expect((await core.bash.run(agent, { command: 'touch again' })).status).toBe('completed')
    await core.approvals.answer((await pendingFor('touch made-here')).id, { kind: 'deny' })
    expect((await inMain).status).toBe('denied')
  })
})
