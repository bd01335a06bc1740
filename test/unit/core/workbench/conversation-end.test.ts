import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { type CoreHarness, startCore, waitFor } from './core-harness'

let harness: CoreHarness | null = null
afterEach(async () => {
  await harness?.dispose()
  harness = null
})

const startTimeOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!
}

describe('when an agent conversation has ended (issue 22.4)', () => {
  it('a hook-only run ends once its agent process exits, and opens again with its next call', async () => {
    harness = await startCore()
    const agentProcess = spawn('sleep', ['30'], { stdio: 'ignore' })
    const pid = agentProcess.pid!
    const { core } = harness
    const session = await core.sessions.create({
      workspace: harness.workspace,
      agent: { name: 'gemini-cli', version: null },
      run: { agentSessionId: 'g-1', process: { pid, startTime: startTimeOf(pid) } },
      channel: 'hook',
    })
    await core.sessions.sweep()
    expect(core.sessions.list().find((s) => s.id === session.id)?.endedAt).toBeNull()

    agentProcess.kill('SIGKILL')
    await new Promise((resolve) => agentProcess.once('exit', resolve))
    await core.sessions.sweep()
    const ended = core.sessions.list().find((s) => s.id === session.id)
    expect(ended?.endedAt).toEqual(expect.any(String))
    // Kept, with its history, after a restart too.
    const again = await harness.restart()
    expect(again.sessions.list().find((s) => s.id === session.id)?.endedAt).toBe(ended?.endedAt)
    await again.dispose()

    await core.sessions.touch(session.id, 'hook')
    expect(core.sessions.list().find((s) => s.id === session.id)).toMatchObject({
      endedAt: null,
      channels: ['hook'],
    })
  })

  it('an MCP conversation ends when its last connection closes', async () => {
    harness = await startCore()
    const { core } = harness
    const session = await core.sessions.create({
      workspace: harness.workspace,
      agent: { name: 'claude-code', version: '2.1.332' },
      channel: 'mcp',
    })
    const first = new AbortController()
    const second = new AbortController()
    core.sessions.attach(session.id, first.signal)
    core.sessions.attach(session.id, second.signal)
    first.abort()
    expect(core.sessions.isAttached(session.id)).toBe(true)
    expect(core.sessions.list().find((s) => s.id === session.id)?.endedAt).toBeNull()
    second.abort()
    await waitFor(() => core.sessions.list().find((s) => s.id === session.id)?.endedAt, 'the end')
  })
})
