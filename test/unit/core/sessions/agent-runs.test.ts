import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { agentProcessOf, isRunning, isWrapper } from '../../../../src/main/core/sessions/agent-process'
import { agentFamily, conversationTitle, isSameRun } from '../../../../src/main/core/sessions/agent-runs'
import type { SessionRecord } from '../../../../src/main/core/sessions/session-record'

const record = (overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  version: 1,
  id: 'conv-1',
  createdAt: '2026-12-01T10:00:00.000Z',
  workspace: '/work/proj',
  agent: { name: 'codex-mcp-client', version: '0.171.0' },
  shell: { dialect: 'bash', path: '/bin/bash', source: 'search', reason: '', envOverlay: {} },
  reminders: [],
  run: { process: { pid: 4242, startTime: '991' } },
  ...overrides,
})

describe('which conversation a call of an agent run belongs to', () => {
  it('knows one program by both its names', () => {
    expect(agentFamily('codex-mcp-client')).toBe(agentFamily('codex'))
    expect(agentFamily('gemini-cli-mcp-client')).toBe(agentFamily('gemini-cli'))
    expect(agentFamily('claude-code')).toBe('claude-code')
  })

  it("matches Codex's hook to its MCP server's conversation by the agent process they share", () => {
    const hook = { agentName: 'codex', workspace: '/work/proj', agentSessionId: 'thread-1' }
    expect(isSameRun(record(), { ...hook, process: { pid: 4242, startTime: '991' } })).toBe(true)
    // The pid reused by a later process, another folder, another program: not the same run.
    expect(isSameRun(record(), { ...hook, process: { pid: 4242, startTime: '992' } })).toBe(false)
    expect(
      isSameRun(record(), { ...hook, workspace: '/work/other', process: { pid: 4242, startTime: '991' } }),
    ).toBe(false)
    expect(
      isSameRun(record(), { ...hook, agentName: 'claude-code', process: { pid: 4242, startTime: '991' } }),
    ).toBe(false)
    expect(isSameRun(record(), { ...hook, process: null })).toBe(false)
  })

  it("the agent's own session id decides when both sides know it", () => {
    const claude = record({
      agent: { name: 'claude-code', version: '2.1.332' },
      run: { agentSessionId: 'abc', process: { pid: 7, startTime: '1' } },
    })
    const query = { agentName: 'claude-code', workspace: '/work/proj' }
    expect(isSameRun(claude, { ...query, agentSessionId: 'abc' })).toBe(true)
    // Same process, another Claude session (after /clear): a new conversation.
    expect(isSameRun(claude, { ...query, agentSessionId: 'def', process: { pid: 7, startTime: '1' } })).toBe(
      false,
    )
  })

  it('`shellgate exec` from an agent shell joins any agent run by process only, never the person', () => {
    const exec = { agentName: 'shellgate exec', workspace: '/elsewhere', anyAgent: true }
    expect(isSameRun(record(), { ...exec, process: { pid: 4242, startTime: '991' } })).toBe(true)
    expect(
      isSameRun(record({ agent: undefined }), { ...exec, process: { pid: 4242, startTime: '991' } }),
    ).toBe(false)
  })

  it('names conversations so two open ones never look alike', () => {
    const at = new Date(2026, 11, 1, 9, 5, 7)
    const agent = { name: 'claude-code', version: '2.1.332' }
    const first = conversationTitle(agent, '/work/proj', at, new Set())
    expect(first).toBe('claude-code 2.1.332 · proj · 09:05')
    const second = conversationTitle(agent, '/work/proj', at, new Set([first]))
    expect(second).toBe('claude-code 2.1.332 · proj · 09:05:07')
    expect(conversationTitle(agent, '/work/proj', at, new Set([first, second]))).toBe(
      'claude-code 2.1.332 · proj · 09:05:07 (2)',
    )
  })
})

describe('the agent process among a caller’s ancestors (real processes)', () => {
  it('skips the shell a hook runs in and finds the program that started it', async () => {
    // This test process plays the agent: it starts `sh -c` (as Claude Code runs a hook), which starts the hook.
    const child = spawn('sh', ['-c', 'sleep 30; true'], { stdio: 'ignore' })
    try {
      const sleeper = await waitForChild(child.pid!)
      const agent = await agentProcessOf(sleeper, 'linux')
      expect(agent?.pid).toBe(process.pid)
      expect(await isRunning(agent!, 'linux')).toBe(true)
      expect(await isRunning({ ...agent!, startTime: 'other' }, 'linux')).toBe(false)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('treats shells, env, npm and our own launchers as wrappers, never an agent', () => {
    expect(isWrapper(['/bin/sh', '-c', 'shellgate hook claude-code'])).toBe(true)
    expect(isWrapper(['-bash'])).toBe(true)
    expect(isWrapper(['/usr/bin/node', '/opt/shellgate/bin/shellgate.js', 'mcp'])).toBe(true)
    expect(isWrapper(['node', '--import', 'tsx/loader.mjs', '/src/main/cli.ts', 'mcp'])).toBe(true)
    expect(isWrapper(['/root/.cache/shellgate-test-clis/node_modules/.bin/claude', '-p'])).toBe(false)
    expect(isWrapper(['/usr/bin/node', '/x/node_modules/.bin/gemini', '-p'])).toBe(false)
  })
})

/** The pid of `sh`'s child (sleep), once it exists. */
async function waitForChild(shPid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  for (let i = 0; i < 200; i++) {
    const children = await readFile(`/proc/${shPid}/task/${shPid}/children`, 'utf8').catch(() => '')
    const pid = Number(children.trim().split(' ')[0])
    if (pid > 0) return pid
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('sh started no child')
}
