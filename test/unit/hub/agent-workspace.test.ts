import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { refuseBroadAgentWorkspace } from '../../../src/main/ipc/agent-workspace'
import { RpcError } from '../../../src/shared/ipc/errors'
import { connectLoopback } from '../../../src/main/transports/loopback'
import { createClient } from '../../../src/shared/ipc/client'
import { contract } from '../../../src/shared/ipc/contract'
import { type InProcessHub, startInProcessHub } from './hub-harness'

// An agent names its own workspace, and the workspace is what "reads outside the workspace"
// (issue 13, class 6) and the workspace-write sandbox are measured against. An agent that names
// the whole home folder (or /) turns every read of the person's files into one that runs without
// asking. The person may work anywhere; an agent works in a project folder.

let hub: InProcessHub | null = null
const dirs: string[] = []
afterEach(async () => {
  await hub?.close()
  hub = null
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'ok'
  } catch (error) {
    return error instanceof RpcError ? `${error.code}: ${error.message}` : String(error)
  }
}

async function homeWithProjects() {
  const userHome = await realpath(await mkdtemp(join(tmpdir(), 'sg-agent-home-')))
  dirs.push(userHome)
  const project = join(userHome, 'projects', 'mine')
  const other = join(userHome, 'projects', 'other')
  await mkdir(project, { recursive: true })
  await mkdir(other, { recursive: true })
  await writeFile(join(other, 'notes.txt'), 'the person’s private notes')
  return { userHome, project, other }
}

describe('the workspace an agent names for its session', () => {
  it('a project folder works; reading another folder of the person asks', async () => {
    const { userHome, project, other } = await homeWithProjects()
    hub = await startInProcessHub({ userHome })
    const agent = await hub.connectAgent()
    const session = await agent.client.request('sessions.create', { workspace: project })
    const check = await agent.client.request('bash.check', {
      sessionId: session.id,
      command: `cat ${join(other, 'notes.txt')}`,
    })
    expect(check.wouldDo).toBe('ask')
  })

  it('the home folder, an ancestor of it, /, a symlink to home, and SHELLGATE_HOME are refused, coded', async () => {
    const { userHome } = await homeWithProjects()
    hub = await startInProcessHub({ userHome })
    const agent = await hub.connectAgent()
    const link = join(hub.workspace, 'home-link')
    await symlink(userHome, link)
    for (const workspace of [userHome, dirname(userHome), '/', link]) {
      expect(await codeOf(agent.client.request('sessions.create', { workspace }))).toBe(
        `invalid_input: workspace: ${workspace} is the home folder or contains it; an agent session works in a project folder (run the agent in one, or pass shellgate mcp --workspace DIR)`,
      )
    }
    for (const workspace of [hub.home, join(hub.home, 'run')]) {
      await mkdir(workspace, { recursive: true })
      expect(await codeOf(agent.client.request('sessions.create', { workspace }))).toBe(
        `invalid_input: workspace: ${workspace} is Shellgate's own data folder (SHELLGATE_HOME) or inside it; an agent session works in a project folder`,
      )
    }
    // Nothing was created for the agent, and hooks are held to the same rule.
    expect(hub.host.core.sessions.list().filter((session) => session.agent !== null)).toEqual([])
    expect(
      await codeOf(
        agent.client.request('hooks.decide', {
          agent: { name: 'claude-code' },
          agentSessionId: 's1',
          workspace: userHome,
          command: `cat ${join(userHome, 'projects', 'other', 'notes.txt')}`,
        }),
      ),
    ).toMatch(/^invalid_input: workspace: .* is the home folder or contains it/)
    expect(hub.host.core.sessions.list().filter((session) => session.agent !== null)).toEqual([])
  })

  it('the folder the session service stored is checked again, whatever the name resolved to before', async () => {
    const { userHome, project } = await homeWithProjects()
    const places = { userHome, shellgateHome: join(project, '..', 'sg-home') }
    // A name that resolved to a project first and, by the time the session stored it, to home.
    expect(await codeOf(refuseBroadAgentWorkspace(project, places))).toBe('ok')
    expect(await codeOf(refuseBroadAgentWorkspace(project, places, userHome))).toBe(
      `invalid_input: workspace: ${project} is the home folder or contains it; an agent session works in a project folder (run the agent in one, or pass shellgate mcp --workspace DIR)`,
    )
  })

  it('the person may still open a session in their home folder', async () => {
    const { userHome } = await homeWithProjects()
    hub = await startInProcessHub({ userHome })
    const loopback = connectLoopback(hub.host.dispatcher, hub.host.hub, 'ui')
    try {
      const ui = createClient(contract, loopback.transport)
      expect((await ui.request('sessions.create', { workspace: userHome })).workspace).toBe(userHome)
    } finally {
      loopback.disconnect()
    }
  })
})
