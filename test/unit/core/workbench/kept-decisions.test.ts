import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KEPT_DECISIONS_MAX, openKeptDecisions } from '../../../../src/main/core/workbench/kept-decisions'
import { waitForTask } from '../../../../src/main/core/workbench/task-wait'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness | null = null
afterEach(async () => {
  await harness?.dispose()
  harness = null
})

describe('kept decisions (issue 22.5)', () => {
  it('survive a restart: the next run after it reads the denial; a card left waiting reads as never answered', async () => {
    harness = await startCore()
    const { core, workspace } = harness
    const agent = { name: 'gemini-cli-mcp-client', version: '0.61.0' }
    const first = await core.sessions.create({ workspace, agent, channel: 'mcp' })
    const denied = await core.bash.run(first.id, { command: 'touch a' }, { answerWithinMs: 200 })
    const left = await core.bash.run(first.id, { command: 'touch b' }, { answerWithinMs: 200 })
    const card = await waitFor(
      () => core.approvals.list().find((each) => each.command === 'touch a'),
      'card a',
    )
    await core.approvals.answer(card.id, { kind: 'deny', message: 'not now' })
    await waitFor(
      () => readFileSync(join(harness!.home, 'kept-decisions.json'), 'utf8').includes('not now'),
      'the denial on disk',
    )

    const again = await harness.restart()
    // The hook's name for the same program reads the MCP run's decisions too.
    const next = await again.sessions.create({ workspace, agent: { name: 'gemini-cli', version: null } })
    const read = await waitForTask(again, { sessionId: next.id, taskId: denied.taskId! })
    expect(read.task).toMatchObject({ status: 'denied', message: 'not now', output: 'not now' })
    const stale = await waitForTask(again, { sessionId: next.id, taskId: left.taskId! })
    expect(stale.task.status).toBe('withdrawn')
    expect(stale.task.output).toMatch(/stopped before the person answered; nothing ran/)
    await again.dispose()
  })

  it(`keeps at most ${KEPT_DECISIONS_MAX}, dropping the oldest settled ones first`, async () => {
    harness = await startCore()
    const kept = await openKeptDecisions(harness.home)
    const base = {
      sessionId: 's',
      agent: 'codex',
      workspace: '/w',
      command: 'x',
      message: null,
      decidedAt: null,
      outcome: null,
    }
    await kept.put({
      ...base,
      taskId: 'waiting-oldest',
      state: 'waiting',
      requestedAt: '2026-01-01T00:00:00.000Z',
    })
    for (let n = 0; n < KEPT_DECISIONS_MAX; n++)
      await kept.put({
        ...base,
        taskId: `t${n}`,
        state: 'denied',
        requestedAt: new Date(Date.UTC(2026, 1, 1, 0, 0, n)).toISOString(),
      })
    expect(kept.list()).toHaveLength(KEPT_DECISIONS_MAX)
    expect(kept.get('waiting-oldest')).not.toBeNull()
    expect(kept.get('t0')).toBeNull()
    expect((await openKeptDecisions(harness.home)).list()).toHaveLength(KEPT_DECISIONS_MAX)
  })
})
