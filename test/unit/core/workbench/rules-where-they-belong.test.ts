import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { broadRuleProblem } from '../../../../src/main/core/permissions/broad-rules'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness

afterEach(async () => {
  await harness?.dispose()
})

const pendingFor = (command: string) =>
  waitFor(() => harness.core.approvals.list().find((a) => a.command === command), `the card for ${command}`)

describe('a saved rule answers the approvals it covers (issue 14.4)', () => {
  it('"Always allow touch:*" runs two other waiting touch calls, each audited as allowed by that rule', async () => {
    harness = await startCore()
    const { core, sessionId } = harness
    const other = (await core.sessions.create({ title: 'other' })).id
    const calls = [
      core.bash.run(sessionId, { command: 'touch a' }),
      core.bash.run(sessionId, { command: 'touch b' }),
      core.bash.run(other, { command: 'touch c' }),
      core.bash.run(sessionId, { command: 'mkdir d' }),
    ]
    const first = await pendingFor('touch a')
    await pendingFor('touch b')
    await pendingFor('touch c')
    const unrelated = await pendingFor('mkdir d')
    const result = await core.approvals.answer(first.id, {
      kind: 'always_allow',
      rule: 'touch:*',
      scope: 'local',
    })
    expect(result).toMatchObject({ ok: true, alsoAnswered: 2 })
    const [a, b, c] = await Promise.all(calls.slice(0, 3))
    for (const call of [a, b, c]) expect(call?.status).toBe('completed')
    expect(b?.decision).toMatchObject({ rule: 'touch:*', ruleFile: core.settings.localFile })
    expect(core.approvals.list().map((p) => p.id)).toEqual([unrelated.id])
    await core.approvals.answer(unrelated.id, { kind: 'deny' })
    await calls[3]

    const audit = (await readFile(join(harness.home, 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const byCommand = Object.fromEntries(audit.map((entry) => [entry.command, entry]))
    expect(byCommand['touch a']).toMatchObject({ decidedBy: 'always_allowed', rule: 'touch:*' })
    expect(byCommand['touch b']).toMatchObject({ decidedBy: 'rule', rule: 'touch:*', approvedBy: 'user' })
    expect(byCommand['touch c']).toMatchObject({ decidedBy: 'rule', rule: 'touch:*' })
  })

  it('a session rule answers only the same session, and a deny rule still wins', async () => {
    harness = await startCore()
    const { core, sessionId } = harness
    const other = (await core.sessions.create({ title: 'other' })).id
    await core.settings.addRule({ scope: 'user', list: 'deny', rule: 'touch secret' })
    const mine = core.bash.run(sessionId, { command: 'touch mine' })
    const theirs = core.bash.run(other, { command: 'touch theirs' })
    const first = await pendingFor('touch mine')
    await pendingFor('touch theirs')
    const result = await core.approvals.answer(first.id, {
      kind: 'always_allow',
      rule: 'touch:*',
      scope: 'session',
    })
    expect(result).toMatchObject({ ok: true, alsoAnswered: 0 })
    expect((await mine).status).toBe('completed')
    expect(core.approvals.list().map((p) => p.command)).toEqual(['touch theirs'])
    core.approvals.closeSession(other)
    await theirs
  })
})

describe('"Always allow" stays out of the repository (issue 14.6)', () => {
  it('the local scope is stored under SHELLGATE_HOME, keyed by the real path; git status stays clean', async () => {
    harness = await startCore()
    const { core, sessionId, workspace, home } = harness
    execFileSync('git', ['init', '-q'], { cwd: workspace })
    const run = core.bash.run(sessionId, { command: 'touch made' })
    const pending = await pendingFor('touch made')
    await core.approvals.answer(pending.id, { kind: 'always_allow', rule: 'touch:*', scope: 'local' })
    await run
    expect(core.settings.localFile.startsWith(join(home, 'workspaces'))).toBe(true)
    const saved = JSON.parse(await readFile(core.settings.localFile, 'utf8'))
    expect(saved).toEqual({
      workspace: execFileSync('realpath', [workspace]).toString().trim(),
      permissions: { allow: ['touch:*'], ask: [], deny: [] },
    })
    expect(existsSync(join(workspace, '.shellgate'))).toBe(false)
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: workspace }).toString()).toBe('?? made\n')
    // Survives a restart, and applies with no card.
    const again = await harness.restart()
    const next = await again.bash.run(again.sessions.list()[0]!.id, { command: 'touch other' })
    expect(next).toMatchObject({ status: 'completed', decision: { rule: 'touch:*' } })
    expect(next.decision?.reason).toBe('Allowed by your rule `touch:*` (this workspace).')
  })
})

describe('broad rules need a deliberate act (issue 14.7)', () => {
  it.each([
    ['*', 'every command'],
    ['**', 'every command'],
    ['* *', 'every command'],
    ['rm:*', 'every rm command'],
    ['sudo:*', 'every sudo command'],
    ['git push:*', 'every git push command'],
    ['git:*', 'every git command'],
    ['bash *', 'every bash command'],
    ['curl*', 'every curl command'],
  ])('%s is broad: it allows %s', (rule, what) => {
    expect(broadRuleProblem(rule)).toContain(`would allow ${what} without asking`)
  })

  it.each([
    'touch:*',
    'npm test:*',
    'rm build/out.txt',
    'git push origin main',
    'git status:*',
    'rm -rf build',
  ])('%s is an ordinary rule', (rule) => {
    expect(broadRuleProblem(rule)).toBeNull()
  })

  it('is refused from an approval card, and nothing is saved', async () => {
    harness = await startCore()
    const { core, sessionId } = harness
    const run = core.bash.run(sessionId, { command: 'touch x' })
    const pending = await pendingFor('touch x')
    const refused = await core.approvals.answer(pending.id, {
      kind: 'always_allow',
      rule: '*',
      scope: 'local',
    })
    expect(refused).toMatchObject({ ok: false, code: 'invalid_input', field: 'rule' })
    expect(refused.ok ? '' : refused.message).toContain('"*" would allow every command without asking')
    expect(core.settings.rules()).toEqual([])
    expect(core.approvals.list().map((p) => p.id)).toEqual([pending.id])
    await core.approvals.answer(pending.id, { kind: 'deny' })
    await run
  })
})
