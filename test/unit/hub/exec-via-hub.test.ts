import { afterEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../cli/run-cli'
import { type InProcessHub, startInProcessHub, waitFor } from './hub-harness'

let hub: InProcessHub | undefined
afterEach(async () => {
  await hub?.close()
  hub = undefined
})
const env = (home: string) => ({ PATH: process.env.PATH, SHELLGATE_HOME: home, HOME: home })

describe('shellgate exec while a hub runs', () => {
  it('goes through the hub: its mode decides, its audit log records, its conversation has ended after', async () => {
    hub = await startInProcessHub()
    const { core } = hub.host
    await core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const sessionsBefore = core.sessions.list().map((s) => s.id)
    const outcome = await runCliCaptured(['exec', '--json', '--cwd', hub.workspace, '--', 'echo via-hub'], {
      env: env(hub.home),
    })
    expect(outcome.code).toBe(0)
    const json = JSON.parse(outcome.stdout)
    expect(json).toMatchObject({
      status: 'completed',
      exitCode: 0,
      via: 'hub',
      decision: { decidedBy: 'mode.yolo' },
    })
    expect(json).toMatchObject({ stdout: 'via-hub\n', truncated: false })
    const audit = await core.audit.read({})
    expect(audit.entries.map((entry) => entry.command)).toContain('echo via-hub')
    // Its conversation ended with it: kept in the list, folded as ended (issue 22.4), never left open.
    const after = core.sessions.list().filter((s) => !sessionsBefore.includes(s.id))
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({ agent: { name: 'shellgate exec' }, channels: ['exec'] })
    expect(after[0]?.endedAt).not.toBeNull()
  })

  it('cannot approve itself: --approve and --mode are refused, and an ask waits for the person', async () => {
    hub = await startInProcessHub()
    const { core } = hub.host
    const refused = await runCliCaptured(['exec', '--approve', '--cwd', hub.workspace, '--', 'touch x'], {
      env: env(hub.home),
    })
    expect(refused.code).toBe(2)
    // --approve no longer exists at all (issue 11): exec never approves anything itself.
    expect(refused.stderr).toContain("Unknown option '--approve'")
    const moded = await runCliCaptured(['exec', '--mode', 'yolo', '--cwd', hub.workspace, '--', 'touch x'], {
      env: env(hub.home),
    })
    expect(moded.code).toBe(2)
    expect(moded.stderr).toContain('approvals are answered in its UI')
    const running = runCliCaptured(['exec', '--json', '--cwd', hub.workspace, '--', 'touch asked-file'], {
      env: env(hub.home),
    })
    const card = await waitFor(() => core.approvals.list()[0], 'the approval card in the hub')
    expect(card.command).toBe('touch asked-file')
    await core.approvals.answer(card.id, { kind: 'deny', message: 'not now' }, 'user')
    const outcome = await running
    expect(outcome.code).toBe(126)
    expect(JSON.parse(outcome.stdout)).toMatchObject({ status: 'denied', via: 'hub' })
  })

  it('a large output comes back whole over the socket (JSON escaping makes it larger than the text)', async () => {
    hub = await startInProcessHub()
    await hub.host.core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const outcome = await runCliCaptured(
      ['exec', '--json', '--cwd', hub.workspace, '--', `head -c 3000000 /dev/zero | tr '\\0' '"'`],
      { env: env(hub.home) },
    )
    expect(outcome.code).toBe(0)
    const json = JSON.parse(outcome.stdout)
    expect(json.stdout).toHaveLength(3_000_000)
    expect(json.stdout).toMatch(/^"+$/)
  })

  it('a background run keeps its conversation open: its task belongs to it', async () => {
    hub = await startInProcessHub()
    const { core } = hub.host
    await core.settings.updateUser({ permissions: { mode: 'yolo' } })
    const before = core.sessions.list().map((s) => s.id)
    const background = await runCliCaptured(
      ['exec', '--json', '--background', '--cwd', hub.workspace, '--', 'sleep 30'],
      { env: env(hub.home) },
    )
    expect(JSON.parse(background.stdout)).toMatchObject({ status: 'backgrounded', via: 'hub' })
    const created = core.sessions.list().filter((s) => !before.includes(s.id))
    expect(created).toHaveLength(1)
    expect(created[0]?.endedAt).toBeNull()
  })
})
