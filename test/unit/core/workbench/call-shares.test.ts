import { afterEach, describe, expect, it } from 'vitest'
import {
  HUB_MAX_RUNNING_CALLS,
  SESSION_MAX_PENDING_APPROVALS,
  SESSION_MAX_RUNNING_CALLS,
} from '../../../../src/main/core/workbench/call-shares'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

async function agentSession(h: CoreHarness, name: string): Promise<string> {
  const session = await h.core.sessions.create({
    title: name,
    workspace: h.workspace,
    agent: { name, version: null },
  })
  return session.id
}

describe('fair shares between agent sessions (issue 19.5)', () => {
  it('names its numbers, each well below the hub total', () => {
    expect([SESSION_MAX_RUNNING_CALLS, SESSION_MAX_PENDING_APPROVALS, HUB_MAX_RUNNING_CALLS]).toEqual([
      16, 8, 64,
    ])
  })

  it("one agent's 64 unanswered asks leave 8 cards, and another agent's ls still runs", async () => {
    harness = await startCore()
    const flooder = await agentSession(harness, 'flooder')
    const other = await agentSession(harness, 'other')
    // One after another, as an agent that is told "waiting" and asks again: each call either waits
    // on a card or is answered at once.
    const flood: Promise<{ content: string }>[] = []
    for (let n = 0; n < 64; n++) {
      const call = harness.core.bash.run(flooder, { command: `touch flood-${n}` })
      flood.push(call)
      if (n < SESSION_MAX_PENDING_APPROVALS) {
        await waitFor(() => harness!.core.approvals.list(flooder).length === n + 1, `card ${n + 1}`)
      } else await call
    }
    const refused = (await Promise.all(flood.slice(SESSION_MAX_PENDING_APPROVALS))).map(
      (call) => call.content,
    )
    expect(new Set(refused)).toEqual(
      new Set([
        "Not run: 8 of this session's commands already wait for approval in Shellgate; nothing more is asked until the person answers them",
      ]),
    )
    await waitFor(
      () => harness!.core.approvals.list(flooder).length === SESSION_MAX_PENDING_APPROVALS,
      'the cards',
    )
    expect(harness.core.approvals.list()).toHaveLength(SESSION_MAX_PENDING_APPROVALS)
    // Reads are not refused for somebody else's asks, nor for the flooder's own.
    const read = await harness.core.bash.run(other, { command: 'echo still-answered' })
    expect(read).toMatchObject({ status: 'completed', content: 'still-answered' })
    expect((await harness.core.bash.run(flooder, { command: 'echo own-read' })).content).toBe('own-read')
    // The other agent may still ask the person.
    const ask = harness.core.bash.run(other, { command: 'touch other-asks' })
    await waitFor(() => harness!.core.approvals.list(other).length === 1, "the other agent's card")
    await harness.core.closeSession(flooder)
    await harness.core.closeSession(other)
    await Promise.all([...flood, ask])
  })

  it('a hook question past the session cap is denied with the reason', async () => {
    harness = await startCore()
    const session = await agentSession(harness, 'hooked')
    const questions = Array.from({ length: SESSION_MAX_PENDING_APPROVALS + 1 }, (_, n) =>
      harness!.core.bash.decideForHook(session, { command: `touch hook-${n}` }),
    )
    const last = await questions[SESSION_MAX_PENDING_APPROVALS]!
    expect(last).toMatchObject({ decision: 'deny', decidedBy: 'too_many_waiting' })
    expect(last.reason).toContain("8 of this session's commands already wait for approval")
    await harness.core.closeSession(session)
    await Promise.all(questions)
  })

  it(`a session runs at most ${SESSION_MAX_RUNNING_CALLS} commands at once; the hub ${HUB_MAX_RUNNING_CALLS}`, async () => {
    harness = await startCore()
    // Unsandboxed, so 64 sleeps are 64 processes, not 64 sandboxes, on a small machine.
    await harness.core.settings.updateUser({ sandbox: { mode: 'off' } })
    const sessions = [harness.sessionId]
    for (let n = 1; n < HUB_MAX_RUNNING_CALLS / SESSION_MAX_RUNNING_CALLS + 1; n++)
      sessions.push(await agentSession(harness, `agent-${n}`))
    const running = sessions
      .slice(0, 4)
      .flatMap((id) =>
        Array.from({ length: SESSION_MAX_RUNNING_CALLS }, () =>
          harness!.core.bash.run(id, { command: 'sleep 30', timeout: 60_000 }),
        ),
      )
    // Handled from the start: closing the sessions below may end a call that is still starting with
    // an error (its output folder removed under it), and an unhandled one fails the whole run.
    const settled = Promise.allSettled(running)
    await expect(harness.core.bash.run(sessions[0]!, { command: 'echo x' })).rejects.toThrow(
      "16 of this session's commands are already running; try again when one ends",
    )
    await expect(harness.core.bash.run(sessions[4]!, { command: 'echo x' })).rejects.toThrow(
      '64 commands are already running in Shellgate; try again when one ends',
    )
    for (const id of sessions) await harness.core.closeSession(id)
    await harness.core.bash.dispose()
    await settled
  }, 60_000)
})
