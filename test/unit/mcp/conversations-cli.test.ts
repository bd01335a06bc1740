import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  answerAgentCard,
  connectWrite,
  makeAgentHome,
  OFFLINE_ENV,
  realCliOrWhyNot,
  scriptedTurn,
  skipWithReason,
  disposedAfterEach,
} from './real-clis'
import { startTestHub, type TestHub } from './test-hub'

const WITH_FAKE_API = resolve('test/fixtures/real-clis/with-fake-anthropic-api.mjs')
const run = promisify(execFile)

const held = disposedAfterEach()

describe('one conversation per agent run (issue 22.4), with the real Claude Code', () => {
  it("its MCP call and its hook's call land in one conversation's history, each with how it came and its outcome", {
    timeout: 300_000,
  }, async (context) => {
    const cli = await realCliOrWhyNot('claude')
    if ('skip' in cli) return skipWithReason(context, cli.skip)
    const testHub = await startTestHub()
    held.hub = testHub
    held.agent = await makeAgentHome('sg-claude-run-')
    const home = held.agent.home
    const env = {
      PATH: held.agent.path,
      HOME: home,
      CLAUDE_CONFIG_DIR: home,
      SHELLGATE_HOME: testHub.home,
      SHELLGATE_NO_OPEN: '1',
      ANTHROPIC_API_KEY: 'not-a-key: the API is a local stand-in',
      // After its own Bash tool the model runs this through Shellgate's MCP bash tool.
      FAKE_MCP_AFTER: 'echo via-mcp',
      ...OFFLINE_ENV,
    }
    await connectWrite('claude-code', env)
    const marker = join(testHub.workspace, 'hook-marker')
    const command = `touch ${marker} && echo via-hook`
    const resultsFile = join(home, 'results.json')
    const [bin, argv] = scriptedTurn(WITH_FAKE_API, resultsFile, command, [
      cli.bin,
      ...['-p', 'do the scripted step', '--output-format', 'json', '--model', 'claude-sonnet-4-5'],
    ])
    const finished = run(bin, argv, { cwd: testHub.workspace, env, timeout: 200_000 })
    await answerAgentCard(
      testHub,
      { agent: 'claude-code', command, description: 'the scripted step' },
      { kind: 'allow_once' },
    )
    await finished
    const results = JSON.parse(await readFile(resultsFile, 'utf8')) as Array<{ content?: unknown }>
    expect(JSON.stringify(results[0]?.content)).toContain('via-hook')
    expect(JSON.stringify(results[1]?.content)).toContain('via-mcp')
    expect(existsSync(marker)).toBe(true)

    const conversations = (await testHub.ui.request('sessions.list', {})).filter(
      (session) => session.origin === 'agent',
    )
    expect(conversations).toHaveLength(1)
    const [conversation] = conversations
    expect(conversation).toMatchObject({
      agent: { name: 'claude-code', version: REAL_CLAUDE_VERSION },
      workspace: testHub.workspace,
      channels: expect.arrayContaining(['mcp', 'hook']),
      agentSessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    expect(conversation?.title).toMatch(/^claude-code \d+\.\d+\.\d+ · sg-mcp-ws-\w+ · \d\d:\d\d$/)
    const history = await testHub.ui.request('bash.history', { sessionId: conversation!.id })
    expect(history.map((call) => [call.command, call.via, call.status])).toEqual([
      [command, 'hook', 'completed'],
      ['echo via-mcp', 'mcp', 'completed'],
    ])
    // The run is over: its MCP connection closed, so the desk folds it away.
    const ended = await waitForEnd(testHub, conversation!.id)
    expect(ended).not.toBeNull()
  })
})

const REAL_CLAUDE_VERSION = expect.stringMatching(/^\d+\.\d+\.\d+$/)

async function waitForEnd(testHub: TestHub, sessionId: string): Promise<string | null> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const session = (await testHub.ui.request('sessions.list', {})).find((each) => each.id === sessionId)
    if (session?.endedAt) return session.endedAt
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return null
}
