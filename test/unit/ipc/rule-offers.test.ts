import { existsSync } from 'node:fs'
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../src/main/core/env/sanitize-entry'
import { RULE_OFFER_COUNTS_FILE } from '../../../src/main/core/workbench/rule-offer-counts'
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

/** Stops the hub and its core, as quitting Shellgate does: what is not on disk is gone. */
const stopCore = async () => {
  await gate?.dispose()
  gate = null
}

const temp = async (prefix: string) => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  temps.push(dir)
  return dir
}

async function start(reuse?: { home: string; project: string }) {
  const home = reuse?.home ?? (await temp('sg-offers-home-'))
  // Notices emitted while the core starts (a corrupt counts file) arrive before any client listens.
  const notices: string[] = []
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
        emit: (event, payload) => {
          if (event === 'app.notice') notices.push((payload as { message: string }).message)
          hub.emit(event, payload)
        },
      }),
  })
  const ui = createClient(contract, connectLoopback(gate.dispatcher, gate.hub, 'ui').transport)
  const agent = createClient(contract, connectLoopback(gate.dispatcher, gate.hub, 'agent').transport)
  const project = reuse?.project ?? (await temp('sg-offers-project-'))
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
  return { ui, agent, home, project, session, answered, notices }
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

  it('the counts, a denial and an open offer survive a real restart of the core', async () => {
    const first = await start()
    await first.answered('touch before-1', { kind: 'allow_once' })
    await first.answered('touch before-2', { kind: 'allow_once' })
    await first.answered('mkdir before', { kind: 'deny' })
    await stopCore()

    const second = await start(first)
    // Two allows before the restart and one after are three: the offer comes.
    await second.answered('touch after-1', { kind: 'allow_once' })
    const [offer] = await second.ui.request('rules.offers', {})
    expect(offer).toMatchObject({
      rule: 'touch:*',
      allowedCount: RULE_OFFER_AFTER_ALLOWS,
      examples: ['touch after-1', 'touch before-2', 'touch before-1'],
    })
    // The denial was kept too: mkdir is not offered however often it is allowed now.
    for (const name of ['a', 'b', 'c']) await second.answered(`mkdir m-${name}`, { kind: 'allow_once' })
    expect((await second.ui.request('rules.offers', {})).map((each) => each.rule)).toEqual(['touch:*'])
    await stopCore()

    const third = await start(first)
    // Not yet answered, so still offered after a restart; dismissed, it stays gone after the next.
    const [again] = await third.ui.request('rules.offers', {})
    expect(again).toEqual(offer)
    await third.ui.request('rules.dismissOffer', { id: again!.id })
    await stopCore()

    const fourth = await start(first)
    await fourth.answered('touch after-2', { kind: 'allow_once' })
    expect(await fourth.ui.request('rules.offers', {})).toEqual([])
    expect(fourth.notices).toEqual([])
  }, 120_000)

  it('a corrupt counts file is kept as .bak with a warning, and counting starts again', async () => {
    const home = await temp('sg-offers-home-')
    const project = await temp('sg-offers-project-')
    const file = join(home, RULE_OFFER_COUNTS_FILE)
    await writeFile(file, '{"version":1,"shapes":[{"workspace":')
    const { ui, answered, notices } = await start({ home, project })
    await waitFor(() => notices.some((each) => each.includes('Rule offer counts')), 'the warning')
    const warning = notices.find((each) => each.includes('Rule offer counts'))
    expect(warning).toContain(`kept as ${file}.bak`)
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('{"version":1,"shapes":[{"workspace":')
    for (let n = 1; n <= RULE_OFFER_AFTER_ALLOWS; n++) await answered(`touch c-${n}`, { kind: 'allow_once' })
    expect((await ui.request('rules.offers', {})).map((each) => each.rule)).toEqual(['touch:*'])
    // Written back whole: the new file parses and holds the shape.
    const saved = JSON.parse(await readFile(file, 'utf8'))
    expect(saved.shapes).toMatchObject([{ rule: 'touch:*', allowed: RULE_OFFER_AFTER_ALLOWS, done: true }])
  }, 120_000)
})
