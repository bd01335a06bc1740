import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AgentClientStatus } from '../../../src/shared/ipc/domains/agents'
import { startTestHub, type TestHub } from '../mcp/test-hub'
import { runCliCaptured } from './run-cli'
import { shellgateBinDir } from './shellgate-on-path'

// Issue 22.1: `shellgate doctor` and Settings → Agents say, per client, what is configured, whether
// its command starts, whether the MCP server answers, the hook, and when it was last seen.

let binDir: string
beforeAll(async () => {
  binDir = await shellgateBinDir()
})
afterAll(() => rm(binDir, { recursive: true, force: true }))

let hub: TestHub | null = null
const cleanup: string[] = []
afterEach(async () => {
  await hub?.dispose()
  hub = null
  for (const dir of cleanup.splice(0)) await rm(dir, { recursive: true, force: true })
})

const byClient = (clients: AgentClientStatus[], client: string) => {
  const found = clients.find((each) => each.client === client)
  if (!found) throw new Error(`no status for ${client}`)
  return found
}

describe('shellgate doctor', () => {
  it('after connect --write: Claude Code configured, its command starts, the MCP server lists the tools, the hook is there', async () => {
    hub = await startTestHub()
    const env = { ...hub.env, PATH: `${binDir}:${hub.env.PATH}` }
    expect(
      (await runCliCaptured(['connect', 'claude-code', '--write'], { env, cwd: hub.workspace })).code,
    ).toBe(0)

    const result = await runCliCaptured(['doctor', '--json'], { env, cwd: hub.workspace })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const { clients } = JSON.parse(result.stdout) as { clients: AgentClientStatus[] }
    expect(clients.map((each) => each.client)).toEqual(['claude-code', 'codex', 'gemini', 'cursor'])
    const claude = byClient(clients, 'claude-code')
    expect(claude.configured).toBe(true)
    expect(claude.files.map((file) => [file.role, file.state])).toEqual([
      ['mcp', 'configured'],
      ['hook', 'configured'],
      ['permission', 'configured'],
    ])
    expect(claude.files[0]?.command).toBe('shellgate mcp')
    expect(claude.command.ok).toBe(true)
    expect(claude.mcp).toMatchObject({ ok: true })
    expect(claude.mcp.detail).toMatch(/listed \d+ tools \(.*\bbash\b.*\btask_output\b/)
    expect(claude.hook).toEqual({ ok: true, detail: 'runs shellgate hook claude-code' })
    expect(claude.trusted).toBeNull()
    expect(claude.fix).toBeNull()
    // The check made no tool call: no conversation appeared in the hub.
    expect((await hub.ui.request('sessions.list', {})).filter((session) => session.agent)).toEqual([])

    const codex = byClient(clients, 'codex')
    expect(codex.configured).toBe(false)
    expect(codex.files.every((file) => file.state === 'missing')).toBe(true)
    expect(codex.fix).toBe('shellgate connect codex --write')

    // Settings → Agents gets the same data from the hub, checked with the hub's own environment:
    // this hub was started with a PATH that has no shellgate on it, so the same entry fails there.
    const fromHub = byClient((await hub.ui.request('agents.status', {})).clients, 'claude-code')
    expect(fromHub).toMatchObject({ configured: true, command: { ok: false }, mcp: { ok: false } })
    expect(fromHub.command.detail).toContain('`shellgate --version` did not start')
    expect(fromHub.fix).toBe('shellgate connect claude-code --write')

    // The text form names each check.
    const text = await runCliCaptured(['doctor'], { env, cwd: hub.workspace })
    expect(text.stdout).toContain('Claude Code (claude-code): configured')
    expect(text.stdout).toMatch(/ {2}mcp {8}ok {3}answered initialize/)
    expect(text.stdout).toContain('fix:       shellgate connect codex --write')
  }, 300_000)

  it('an entry whose command does not start fails, says why, and exits 1; Codex trust is never claimed', async () => {
    const home = await mkdtemp(join(tmpdir(), 'sg-doctor-'))
    cleanup.push(home)
    const codexHome = join(home, '.codex')
    await mkdir(codexHome)
    await writeFile(
      join(codexHome, 'config.toml'),
      '[mcp_servers.shellgate]\ncommand = "/nowhere/shellgate"\nargs = ["mcp"]\n',
    )
    await writeFile(
      join(codexHome, 'hooks.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: '/nowhere/shellgate hook codex' }] },
          ],
        },
      }),
    )
    const env = { HOME: home, PATH: '/usr/bin:/bin', SHELLGATE_HOME: join(home, 'sg') }
    const result = await runCliCaptured(['doctor', '--json'], { env, cwd: home })
    expect(result.code).toBe(1)
    const codex = byClient((JSON.parse(result.stdout) as { clients: AgentClientStatus[] }).clients, 'codex')
    expect(codex.configured).toBe(true)
    expect(codex.files[0]).toMatchObject({
      role: 'mcp',
      state: 'configured',
      command: '/nowhere/shellgate mcp',
    })
    expect(codex.command.ok).toBe(false)
    expect(codex.command.detail).toContain('`/nowhere/shellgate --version` did not start')
    expect(codex.mcp).toEqual({ ok: false, detail: 'not checked: its command does not start' })
    expect(codex.hook.ok).toBe(true)
    // No codex on this PATH to ask, and config.toml records no trust for the hook's key.
    expect(codex.trusted).toEqual({
      ok: false,
      detail: 'never trusted in Codex: open /hooks in Codex and trust "/nowhere/shellgate hook codex"',
    })
    expect(codex.fix).toBe('shellgate connect codex --write')
  })

  it('with no Shellgate running it does not start one: the MCP check says it was not made', async () => {
    const home = await mkdtemp(join(tmpdir(), 'sg-doctor-'))
    cleanup.push(home)
    const env = { HOME: home, PATH: `${binDir}:/usr/bin:/bin`, SHELLGATE_HOME: join(home, 'sg') }
    expect((await runCliCaptured(['connect', 'gemini', '--write'], { env, cwd: home })).code).toBe(0)
    const result = await runCliCaptured(['doctor', '--json'], { env, cwd: home })
    const gemini = byClient((JSON.parse(result.stdout) as { clients: AgentClientStatus[] }).clients, 'gemini')
    expect(gemini).toMatchObject({
      configured: true,
      command: { ok: true },
      hook: { ok: true },
      mcp: { ok: null },
    })
    expect(gemini.mcp.detail).toContain('no Shellgate is running')
    expect(result.code).toBe(0)
  }, 120_000)
})
