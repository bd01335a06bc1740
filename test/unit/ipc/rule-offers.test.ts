import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../src/main/core/env/sanitize-entry'
import { RULE_OFFER_AFTER_ALLOWS } from '../../../src/main/core/workbench/rule-offers'
import { createWorkspaceGate, type WorkspaceGate } from '../../../src/main/ipc/workspace-gate'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'
import { waitFor } from '../core/workbench/core-harness'

// Issue 22.8: after the person allowed one command shape N times in a workspace and never denied
// it, the desk offers the rule; accepting saves it (and answers the cards it now allows).

let gate: WorkspaceGate | null = null
const temps: string[] = []
afterEach(async () => {
  await gate?.dispose()
  gate = null
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true })
})

const temp = async (prefix: string) => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  temps.push(dir)
  return dir
}

async function start() {
  const home = await temp('sg-offers-home-')
  const env = sanitizeEntryEnv(
    { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, SHELL: '/bin/bash', SHELLGATE_HOME: home },
    'linux',
  )
  gate = await createWorkspaceGate({
    home,
    makeCore: (workspace, hub) =>
      createCore({
        workspace,
        env,
        runtime: 'browser',
        electronVersion: null,
        captureLoginShell: false,
        emit: hub.emit,
      }),
  })
  const ui = createClient(contract, connectLoopback(gate.dispatcher, gate.hub, 'ui').transport)
  const agent = createClient(contract, connectLoopback(gate.dispatcher, gate.hub, 'agent').transport)
  const project = await temp('sg-offers-project-')
  const session = await agent.request('sessions.create', {
    workspace: project,
    agent: { name: 'claude-code', version: '2.1.332' },
  })
  /** Runs a command that asks, answers its card as the person, and returns the call's end. */
  const answered = async (command: string, answer: { kind: 'allow_once' } | { kind: 'deny' }) => {
    const call = agent.request('bash.run', { sessionId: session.id, command })
    const card = await waitFor(
      async () => (await ui.request('approvals.list', {})).find((each) => each.command === command),
      `the card for ${command}`,
    )
    await ui.request('approvals.answer', { id: card.id, answer })
    return call
  }
  return { ui, agent, project, session, answered }
}

describe('rule offers (issue 22.8)', () => {
  it(`offers touch:* after ${RULE_OFFER_AFTER_ALLOWS} allows; accepting saves it and answers the card waiting`, async () => {
    const { ui, agent, project, session, answered } = await start()
    const offered: unknown[] = []
    ui.on('rules.offered', (offer) => offered.push(offer))
    for (let n = 1; n < RULE_OFFER_AFTER_ALLOWS; n++) {
      expect((await answered(`touch made-${n}`, { kind: 'allow_once' })).status).toBe('completed')
      expect(await ui.request('rules.offers', {})).toEqual([])
    }
    await answered(`touch made-${RULE_OFFER_AFTER_ALLOWS}`, { kind: 'allow_once' })
    const [offer] = await ui.request('rules.offers', {})
    expect(offer).toMatchObject({
      rule: 'touch:*',
      scope: 'local',
      workspace: project,
      allowedCount: RULE_OFFER_AFTER_ALLOWS,
      examples: ['touch made-3', 'touch made-2', 'touch made-1'],
    })
    await waitFor(() => offered.length === 1, 'the rules.offered event')

    // An agent cannot read or accept offers: they are the person's.
    await expect(agent.request('rules.offers', {})).rejects.toThrow()

    const waiting = agent.request('bash.run', { sessionId: session.id, command: 'touch waiting' })
    await waitFor(async () => (await ui.request('approvals.list', {})).length === 1, 'the fourth card')
    const accepted = await ui.request('rules.acceptOffer', {
      id: offer!.id,
      rule: offer!.rule,
      scope: 'local',
    })
    expect(accepted).toEqual({ ok: true, rule: 'touch:*', alsoAnswered: 1 })
    expect((await waiting).status).toBe('completed')
    expect(existsSync(join(project, 'waiting'))).toBe(true)
    // Saved: the next one runs without a card, and the offer is gone.
    expect((await agent.request('bash.run', { sessionId: session.id, command: 'touch after' })).status).toBe(
      'completed',
    )
    expect(await ui.request('rules.offers', {})).toEqual([])
  }, 120_000)

  it('a shape the person denied once is never offered; a dismissed offer goes away', async () => {
    const { ui, answered } = await start()
    await answered('mkdir one', { kind: 'allow_once' })
    expect((await answered('mkdir two', { kind: 'deny' })).status).toBe('denied')
    for (const name of ['three', 'four', 'five']) await answered(`mkdir ${name}`, { kind: 'allow_once' })
    expect(await ui.request('rules.offers', {})).toEqual([])

    for (let n = 1; n <= RULE_OFFER_AFTER_ALLOWS; n++) await answered(`touch t-${n}`, { kind: 'allow_once' })
    const [offer] = await ui.request('rules.offers', {})
    expect(offer?.rule).toBe('touch:*')
    await ui.request('rules.dismissOffer', { id: offer!.id })
    expect(await ui.request('rules.offers', {})).toEqual([])
    // Dismissed: more allows of the same shape do not bring it back.
    await answered('touch t-again', { kind: 'allow_once' })
    expect(await ui.request('rules.offers', {})).toEqual([])
    await expect(ui.request('rules.dismissOffer', { id: offer!.id })).rejects.toThrow(/no rule offer/)
  }, 120_000)
})
