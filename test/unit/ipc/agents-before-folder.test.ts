import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../src/main/core/app'
import { sanitizeEntryEnv } from '../../../src/main/core/env/sanitize-entry'
import { createWorkspaceGate, type WorkspaceGate } from '../../../src/main/ipc/workspace-gate'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'
import { waitFor } from '../core/workbench/core-harness'

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

/** `shellgate serve` with no --workspace, as `npm start` runs it: the person has not chosen a folder. */
async function startWithoutFolder() {
  const home = await temp('sg-nofolder-home-')
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
  return { home, ui, agent, gate }
}

describe("agents never wait on the person's folder choice (issue 22.2)", () => {
  it('an agent runs a read at once, asks for a write, and the folder screen lists it with its waiting card', async () => {
    const { ui, agent } = await startWithoutFolder()
    const project = await temp('sg-agent-project-')
    const session = await agent.request('sessions.create', {
      workspace: project,
      agent: { name: 'claude-code', version: '2.1.332' },
    })
    const ls = await agent.request('bash.run', { sessionId: session.id, command: 'ls' })
    expect(ls.status).toBe('completed')

    const writing = agent.request('bash.run', { sessionId: session.id, command: 'touch made-here' })
    const card = await waitFor(async () => (await ui.request('approvals.list', {}))[0], 'the write card')
    const screen = await ui.request('workspaces.recent', {})
    expect(screen.current).toBeNull()
    expect(screen.agents).toEqual([
      expect.objectContaining({ sessionId: session.id, workspace: project, pendingApprovals: 1 }),
    ])
    await ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    expect((await writing).status).toBe('completed')
    expect(existsSync(join(project, 'made-here'))).toBe(true)
  })

  it('refuses an agent workspace that is the home folder, as before', async () => {
    const { agent, home } = await startWithoutFolder()
    await expect(
      agent.request('sessions.create', { workspace: home, agent: { name: 'claude-code' } }),
    ).rejects.toThrow(/home folder|data folder/)
  })

  it("the person's own command box waits for their folder; choosing it makes their session, another folder is refused", async () => {
    const { ui } = await startWithoutFolder()
    await expect(ui.request('sessions.create', {})).rejects.toThrow(/choose the folder to work in first/)
    expect((await ui.request('sessions.list', {})).filter((s) => s.origin === 'person')).toEqual([])
    const folder = await temp('sg-person-folder-')
    await mkdir(join(folder, 'src'))
    expect(await ui.request('workspaces.choose', { workspace: folder })).toEqual({ workspace: folder })
    const mine = (await ui.request('sessions.list', {})).filter((s) => s.origin === 'person')
    expect(mine).toEqual([expect.objectContaining({ workspace: folder })])
    const ran = await ui.request('bash.run', { sessionId: mine[0]!.id, command: 'ls' })
    expect(ran.content).toContain('src')
    const settings = await ui.request('settings.get', {})
    expect(settings.files.workspace).toBe(join(folder, '.shellgate', 'settings.json'))
    const other = await temp('sg-other-folder-')
    await expect(ui.request('workspaces.choose', { workspace: other })).rejects.toThrow(/already works in/)
  })
})
