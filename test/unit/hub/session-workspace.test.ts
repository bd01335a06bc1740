import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RpcError } from '../../../src/shared/ipc/errors'
import { startCore } from '../core/workbench/core-harness'
import { type InProcessHub, startInProcessHub } from './hub-harness'

let hub: InProcessHub | undefined
const dirs: string[] = []
afterEach(async () => {
  await hub?.close()
  hub = undefined
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function otherWorkspace(settings: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shellgate-other-ws-'))
  dirs.push(dir)
  await mkdir(join(dir, '.shellgate'))
  await writeFile(join(dir, '.shellgate', 'settings.json'), JSON.stringify(settings))
  return realpath(dir)
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof RpcError ? `${error.code}: ${error.message}` : String(error)),
  )

describe('an agent session in its own workspace', () => {
  it('runs there under that workspace’s rules, not the hub’s', async () => {
    hub = await startInProcessHub()
    const other = await otherWorkspace({ permissions: { deny: ['echo:*'] } })
    const agent = await hub.connectAgent()
    const there = await agent.client.request('sessions.create', {
      workspace: other,
      agent: { name: 'codex' },
    })
    expect(there).toMatchObject({ workspace: other, agent: { name: 'codex', version: null } })
    const here = await agent.client.request('sessions.create', {})
    expect(here.workspace).toBe(await realpath(hub.workspace))

    expect(
      await agent.client.request('bash.check', { sessionId: there.id, command: 'echo hi' }),
    ).toMatchObject({
      wouldDo: 'deny',
      decidedBy: 'rule.deny',
    })
    expect(
      await agent.client.request('bash.check', { sessionId: here.id, command: 'echo hi' }),
    ).toMatchObject({
      wouldDo: 'run',
    })
    const denied = await agent.client.request('bash.run', { sessionId: there.id, command: 'echo hi' })
    expect(denied.status).toBe('denied')
    const pwd = await agent.client.request('bash.run', { sessionId: there.id, command: 'pwd' })
    expect(pwd).toMatchObject({ status: 'completed', cwd: other })
    expect(pwd.content.trim()).toBe(other)
  })

  it('the workspace is resolved through symlinks and must be an existing absolute directory', async () => {
    hub = await startInProcessHub()
    const other = await otherWorkspace({})
    const link = join(await realpath(tmpdir()), `shellgate-ws-link-${process.pid}`)
    await symlink(other, link)
    dirs.push(link)
    const agent = await hub.connectAgent()
    expect((await agent.client.request('sessions.create', { workspace: link })).workspace).toBe(other)
    const before = hub.host.core.sessions.list().length
    expect(await failure(agent.client.request('sessions.create', { workspace: 'relative/dir' }))).toBe(
      'invalid_input: sessions.create: workspace: must be an absolute path',
    )
    expect(
      await failure(agent.client.request('sessions.create', { workspace: join(other, 'missing') })),
    ).toBe(
      `invalid_input: sessions.create: workspace: ${join(other, 'missing')} is not an existing directory`,
    )
    expect(
      await failure(
        agent.client.request('sessions.create', { workspace: join(other, '.shellgate', 'settings.json') }),
      ),
    ).toMatch(/^invalid_input: .*is not an existing directory$/)
    expect(hub.host.core.sessions.list()).toHaveLength(before)
  })

  it('comes back after a restart with its workspace and agent label', async () => {
    const harness = await startCore()
    try {
      const other = await otherWorkspace({})
      const created = await harness.core.sessions.create({
        workspace: other,
        agent: { name: 'gemini', version: '2' },
      })
      await harness.core.dispose()
      const restarted = await harness.restart()
      expect(restarted.sessions.list().find((session) => session.id === created.id)).toMatchObject({
        workspace: other,
        agent: { name: 'gemini', version: '2' },
      })
    } finally {
      await harness.dispose()
    }
  })
})
