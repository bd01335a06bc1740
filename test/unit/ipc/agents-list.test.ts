import { basename } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'
import { startTestHub, type TestHub } from '../mcp/test-hub'

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

describe('agents.list', () => {
  it('shows each agent session, whether it is connected now, what it runs, and how to connect clients', async () => {
    hub = await startTestHub()
    const connection = connectLoopback(hub.host.dispatcher, hub.host.hub, 'agent')
    const agent = createClient(contract, connection.transport)
    const session = await agent.request('sessions.create', {
      title: 'codex 0.171 · ws',
      workspace: hub.workspace,
      agent: { name: 'codex', version: '0.171.0' },
    })
    const started = await agent.request('bash.run', {
      sessionId: session.id,
      command: 'sleep 300',
      run_in_background: true,
    })
    const report = await hub.ui.request('agents.list', {})
    expect(report.agents).toEqual([
      {
        sessionId: session.id,
        // Named by the hub, so two differ: agent and full version, workspace folder, start time.
        title: expect.stringMatching(
          new RegExp(`^codex 0\\.171\\.0 · ${basename(hub.workspace)} · \\d\\d:\\d\\d$`),
        ),
        agent: { name: 'codex', version: '0.171.0' },
        workspace: hub.workspace,
        connected: true,
        calls: [],
        tasks: [{ taskId: started.taskId, command: 'sleep 300', startedAt: expect.any(String) }],
      },
    ])
    expect(report.setups.map((setup) => setup.client)).toEqual(['claude-code', 'codex', 'gemini', 'cursor'])
    expect(report.setups[0]?.files.map((file) => file.text).join('\n')).toContain('mcp__shellgate__*')
    // An agent may not list other agents.
    await expect(agent.request('agents.list', {})).rejects.toMatchObject({ code: 'denied' })
    connection.disconnect()
    const after = await hub.ui.request('agents.list', {})
    expect(after.agents[0]?.connected).toBe(false)
    await hub.ui.request('tasks.stop', { taskId: started.taskId! })
  })
})
