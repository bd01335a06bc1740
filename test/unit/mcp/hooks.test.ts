import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeCodeHook } from '../../../src/main/mcp/hooks/claude-code-hook'
import { codexHook } from '../../../src/main/mcp/hooks/codex-hook'
import { geminiHook } from '../../../src/main/mcp/hooks/gemini-hook'
import type { HookClient } from '../../../src/main/mcp/hooks/hook-client'
import { answerHook } from '../../../src/main/mcp/hooks/run-hook'
import { waitFor } from '../core/workbench/core-harness'
import { CLI_ENTRY, startTestHub, type TestHub, TSX_LOADER } from './test-hub'

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

/** Claude Code's documented PreToolUse input for its Bash tool. */
function claudeInput(command: string, cwd: string) {
  return {
    session_id: 'abc123',
    transcript_path: '/tmp/transcript.jsonl',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'Do the thing', timeout: 120000 },
    tool_use_id: 'toolu_01ABC123',
  }
}

function ask(client: HookClient, input: unknown, env: Record<string, string>) {
  const text = typeof input === 'string' ? input : JSON.stringify(input)
  // The decision as a client that cannot rewrite gets it; the rewrite has its own tests (hook-tickets).
  return answerHook(client, {
    stdin: Readable.from([Buffer.from(text)]),
    env,
    stderr: () => undefined,
    rewrite: false,
  })
}

const claudeDecision = (decision: string, reason: string | RegExp) => ({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: decision,
    permissionDecisionReason: typeof reason === 'string' ? reason : expect.stringMatching(reason),
  },
})

async function auditLines(home: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(home, 'audit.jsonl'), 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

describe('shellgate hook claude-code, fed the documented PreToolUse JSON', () => {
  it('allow for read-only and allowed-by-rule, deny for a deny rule and plan mode, each audited with the agent', async () => {
    hub = await startTestHub()
    const { env, workspace, ui } = hub
    expect(await ask(claudeCodeHook, claudeInput('ls -la', workspace), env)).toEqual(
      claudeDecision('allow', /^Shellgate: /),
    )
    await ui.request('settings.addRule', { list: 'allow', rule: 'npm test:*', scope: 'user' })
    expect(await ask(claudeCodeHook, claudeInput('npm test -- --watch=false', workspace), env)).toEqual(
      claudeDecision('allow', /^Shellgate: /),
    )
    await ui.request('settings.addRule', { list: 'deny', rule: 'rm:*', scope: 'user' })
    expect(await ask(claudeCodeHook, claudeInput('rm -rf build', workspace), env)).toEqual(
      claudeDecision('deny', /rm:\*/),
    )
    await ui.request('settings.setMode', { mode: 'plan' })
    expect(await ask(claudeCodeHook, claudeInput('touch planned', workspace), env)).toEqual(
      claudeDecision('deny', /plan/i),
    )
    const lines = await auditLines(hub.home)
    expect(
      lines.map((line) => [line.command, line.verdict, line.decidedBy, line.status, line.agent]),
    ).toEqual([
      ['ls -la', 'allow', 'read_only', 'run_by_agent', 'claude-code'],
      ['npm test -- --watch=false', 'allow', 'rule', 'run_by_agent', 'claude-code'],
      ['rm -rf build', 'deny', 'denied_by_rule', 'denied', 'claude-code'],
      ['touch planned', 'deny', 'mode', 'denied', 'claude-code'],
    ])
    // All four questions from one Claude session went to one Shellgate session, named for the agent.
    const sessions = (await ui.request('sessions.list', {})).filter((session) => session.agent)
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ agent: { name: 'claude-code' }, workspace })
  })

  it('asks the person and answers allow, or deny with their message', async () => {
    hub = await startTestHub()
    const { env, workspace, ui } = hub
    const allowed = ask(claudeCodeHook, claudeInput('touch from-claude', workspace), env)
    const card = await waitFor(() => hub?.host.core.approvals.list()[0], 'the card')
    expect(card).toMatchObject({ command: 'touch from-claude', description: 'Do the thing', cwd: workspace })
    await ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    expect(await allowed).toEqual(claudeDecision('allow', 'Shellgate: approved by the person in Shellgate'))

    const denied = ask(claudeCodeHook, claudeInput('touch again', workspace), env)
    const second = await waitFor(() => hub?.host.core.approvals.list()[0], 'the second card')
    await ui.request('approvals.answer', { id: second.id, answer: { kind: 'deny', message: 'not now' } })
    expect(await denied).toEqual(claudeDecision('deny', 'not now'))
    const lines = await auditLines(hub.home)
    expect(lines.map((line) => [line.decidedBy, line.approvedBy, line.agent])).toEqual([
      ['allowed_once', 'user', 'claude-code'],
      ['denied_by_person', 'user', 'claude-code'],
    ])
  })

  it('answers ask when no hub runs or can start, or the input is malformed, and has no opinion on other tools', async () => {
    const home = await mkdtemp(join(tmpdir(), 'sg-hook-nohub-'))
    try {
      // A home under a regular file: no hub can start there (the hook would start one otherwise).
      await writeFile(join(home, 'a-file'), '')
      const env = { SHELLGATE_HOME: join(home, 'a-file', 'sg'), PATH: process.env.PATH ?? '' }
      expect(await ask(claudeCodeHook, claudeInput('touch x', home), env)).toEqual(
        claudeDecision('ask', /Shellgate is not running and could not be started \(.*ENOTDIR/),
      )
      expect(await ask(claudeCodeHook, '{"tool_name": "Bash", ', env)).toEqual(
        claudeDecision('ask', /not JSON/),
      )
      expect(
        await ask(claudeCodeHook, { tool_name: 'Bash', tool_input: { command: 7 }, cwd: home }, env),
      ).toEqual(claudeDecision('ask', /tool_input.command is not a string/))
      expect(await ask(claudeCodeHook, { ...claudeInput('x', home), tool_name: 'Write' }, env)).toEqual({})
      expect(await ask(claudeCodeHook, '[]', env)).toEqual(claudeDecision('ask', /not a JSON object/))
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it('as a process: prints nothing but the decision JSON on stdout and exits 0, even for garbage', async () => {
    const home = await mkdtemp(join(tmpdir(), 'sg-hook-proc-'))
    try {
      const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_ENTRY, 'hook', 'claude-code'], {
        env: { SHELLGATE_HOME: home, PATH: process.env.PATH ?? '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      let stdout = ''
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
      })
      child.stdin.end('\u0000\u0001 not json at all')
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
      expect(code).toBe(0)
      expect(stdout.endsWith('\n')).toBe(true)
      expect(JSON.parse(stdout)).toEqual(claudeDecision('ask', /not JSON/))
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('shellgate hook codex and gemini deny whatever nobody approves', () => {
  it('codex: deny when the hub is down, on bad input and when nobody answers in time (the card is withdrawn)', async () => {
    hub = await startTestHub()
    const { workspace } = hub
    const codexInput = (command: string) => ({
      session_id: 'codex-1',
      cwd: workspace,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
    })
    const nobody = await ask(codexHook, codexInput('touch never'), {
      ...hub.env,
      SHELLGATE_HOOK_WAIT_MS: '400',
    })
    expect(nobody).toEqual(claudeDecision('deny', /nobody answered in Shellgate/))
    await waitFor(() => hub?.host.core.approvals.list().length === 0, 'the card to be withdrawn')
    expect(await ask(codexHook, codexInput('cat README'), hub.env)).toEqual(
      claudeDecision('allow', /Shellgate/),
    )
    expect(await ask(codexHook, 'nope', hub.env)).toEqual(claudeDecision('deny', /not JSON/))
    await writeFile(join(workspace, 'a-file'), '')
    const down = await ask(codexHook, codexInput('ls'), { SHELLGATE_HOME: join(workspace, 'a-file', 'sg') })
    expect(down).toEqual(claudeDecision('deny', /Shellgate is not running and could not be started/))
    const lines = await auditLines(hub.home)
    expect(lines.map((line) => [line.command, line.decidedBy, line.agent])).toEqual([
      ['touch never', 'cancelled', 'codex'],
      ['cat README', 'read_only', 'codex'],
    ])
  })

  it('gemini: BeforeTool answers {decision, reason}; deny when nobody approves or the hub is down', async () => {
    hub = await startTestHub()
    const geminiInput = (command: string) => ({
      session_id: 'gem-1',
      transcript_path: '',
      cwd: hub?.workspace,
      hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command, description: 'list' },
    })
    expect(await ask(geminiHook, geminiInput('ls'), hub.env)).toEqual({
      decision: 'allow',
      reason: expect.stringMatching(/^Shellgate: /),
    })
    const asked = ask(geminiHook, geminiInput('touch gem'), hub.env)
    const card = await waitFor(() => hub?.host.core.approvals.list()[0], 'the card')
    await hub.ui.request('approvals.answer', { id: card.id, answer: { kind: 'deny', message: 'no, gemini' } })
    expect(await asked).toEqual({ decision: 'deny', reason: 'no, gemini' })
    expect(
      await ask(geminiHook, geminiInput('touch x'), { ...hub.env, SHELLGATE_HOOK_WAIT_MS: '300' }),
    ).toEqual({
      decision: 'deny',
      reason: expect.stringMatching(/nobody answered/),
    })
    expect(await ask(geminiHook, { ...geminiInput('ls'), tool_name: 'read_file' }, hub.env)).toEqual({})
    await writeFile(join(hub.workspace, 'a-file'), '')
    expect(
      await ask(geminiHook, geminiInput('ls'), { SHELLGATE_HOME: join(hub.workspace, 'a-file', 'sg') }),
    ).toEqual({
      decision: 'deny',
      reason: expect.stringMatching(/Shellgate is not running/),
    })
  })
})
