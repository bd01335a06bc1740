import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { processIsAlive } from '../../../src/main/hub/hub-lock'
import { waitFor } from '../core/workbench/core-harness'
import { hookProcess, shellTool } from './hook-process'
import { startTestHub, type TestHub } from './test-hub'

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

function claudeInput(command: string, cwd: string) {
  return {
    session_id: 'ticket-session',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'Do the thing' },
  }
}

interface ClaudeAnswer {
  hookSpecificOutput: { permissionDecision: string; updatedInput?: { command: string } }
}

const ask = (input: unknown, env: Record<string, string>) =>
  hookProcess('claude-code', input, env) as Promise<ClaudeAnswer>

async function auditLines(home: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(home, 'audit.jsonl'), 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

describe('a hook-allowed command runs in Shellgate through a one-time ticket', { timeout: 120_000 }, () => {
  it('rewrites to `shellgate ticket T`, which runs exactly the decided command once, in the hub', async () => {
    hub = await startTestHub()
    const { env, workspace } = hub
    await writeFile(join(workspace, 'notes.txt'), 'line one\nline two\n')
    const answer = await ask(claudeInput('cat notes.txt && ls missing-file', workspace), env)
    expect(answer.hookSpecificOutput.permissionDecision).toBe('allow')
    const rewritten = answer.hookSpecificOutput.updatedInput?.command ?? ''
    expect(rewritten).toMatch(/ ticket sgt_[\w-]{43}$/)
    expect(rewritten).not.toContain('notes.txt')

    const ran = await shellTool(rewritten, workspace, env)
    expect(ran.code).toBe(2)
    expect(ran.stdout).toMatch(
      /^line one\nline two\nls: cannot access 'missing-file': No such file or directory\n$/,
    )

    // The run is in the hook's session history and the audit log, with its sandbox profile.
    const sessions = await hub.ui.request('sessions.list', {})
    const session = sessions.find((each) => each.agent?.name === 'claude-code')
    expect(session).toBeDefined()
    const history = await hub.ui.request('bash.history', { sessionId: session!.id })
    expect(history.map((call) => [call.command, call.status, call.exitCode])).toEqual([
      ['cat notes.txt && ls missing-file', 'failed', 2],
    ])
    const lines = await auditLines(hub.home)
    expect(lines.at(-1)).toMatchObject({
      command: 'cat notes.txt && ls missing-file',
      decidedBy: 'read_only',
      status: 'failed',
      exitCode: 2,
      agent: 'claude-code',
      sandbox: 'read-only',
    })

    // Replayed: refused, nothing runs again.
    const replayed = await shellTool(rewritten, workspace, env)
    expect(replayed.code).toBe(126)
    expect(replayed.stderr).toMatch(/already used/)
    // Edited: another ticket string is no ticket at all.
    const edited = rewritten.replace(/sgt_(.)/, (_whole, first: string) => `sgt_${first === 'A' ? 'B' : 'A'}`)
    const forged = await shellTool(edited, workspace, env)
    expect(forged.code).toBe(126)
    expect(forged.stderr).toMatch(/not one this Shellgate issued/)
    expect((await hub.ui.request('bash.history', { sessionId: session!.id })).length).toBe(1)
  })

  it('a command the person approves runs in Shellgate after the card, writes land, no second card', async () => {
    hub = await startTestHub()
    const testHub = hub
    const { env, workspace } = testHub
    const asked = ask(claudeInput('touch made && echo done', workspace), env)
    const card = await (async () => {
      for (;;) {
        const [first] = testHub.host.core.approvals.list()
        if (first) return first
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    expect(card.sandbox?.profile).toBe('workspace-write')
    // The (hook) session's history shows the call while its card waits, the card inline.
    const waiting = await testHub.ui.request('bash.history', { sessionId: card.sessionId })
    expect(waiting.map((call) => [call.id, call.status])).toEqual([[card.callId, 'waiting_for_approval']])
    await testHub.ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    const answer = await asked
    const rewritten = answer.hookSpecificOutput.updatedInput?.command ?? ''
    expect(existsSync(join(workspace, 'made'))).toBe(false)
    const ran = await shellTool(rewritten, workspace, env)
    expect(ran).toMatchObject({ code: 0, stdout: 'done\n' })
    expect(existsSync(join(workspace, 'made'))).toBe(true)
    expect(testHub.host.core.approvals.list()).toEqual([])
    // One call, the decision's, continued by the run.
    const history = await testHub.ui.request('bash.history', { sessionId: card.sessionId })
    expect(history.map((call) => [call.id, call.status, call.sandbox])).toEqual([
      [card.callId, 'completed', 'workspace-write'],
    ])
    expect((await auditLines(testHub.home)).at(-1)).toMatchObject({
      command: 'touch made && echo done',
      decidedBy: 'allowed_once',
      status: 'completed',
      sandbox: 'workspace-write',
    })
  })
})

describe('with no hub running, the hook starts one', { timeout: 120_000 }, () => {
  it('detached, no login code in its log; `ls` is allowed and runs in it', async () => {
    const home = await realpath(await mkdtemp(join(tmpdir(), 'sg-hook-cold-')))
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'sg-hook-cold-ws-')))
    const rendererDir = join(home, 'renderer')
    await mkdir(rendererDir)
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html>')
    await writeFile(join(workspace, 'present.txt'), 'x')
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      SHELL: '/bin/sh',
      SHELLGATE_HOME: home,
      SHELLGATE_NO_OPEN: '1',
      SHELLGATE_RENDERER_DIR: rendererDir,
    }
    try {
      const answer = (await hookProcess('claude-code', claudeInput('ls', workspace), env)) as ClaudeAnswer
      expect(answer.hookSpecificOutput.permissionDecision).toBe('allow')
      const hubInfo = JSON.parse(await readFile(join(home, 'run', 'hub.json'), 'utf8')) as { pid: number }
      expect(processIsAlive(hubInfo.pid)).toBe(true)
      const ran = await shellTool(answer.hookSpecificOutput.updatedInput?.command ?? '', workspace, env)
      expect(ran).toMatchObject({ code: 0, stdout: 'present.txt\n' })
      expect(await readFile(join(home, 'run', 'hub.log'), 'utf8')).not.toMatch(/#code=/)
    } finally {
      const pid = await readFile(join(home, 'run', 'hub.json'), 'utf8')
        .then((text) => (JSON.parse(text) as { pid: number }).pid)
        .catch(() => null)
      if (pid !== null && processIsAlive(pid)) {
        process.kill(pid, 'SIGTERM')
        await waitFor(() => !processIsAlive(pid), 'the started hub to stop', 20_000)
      }
      await rm(home, { recursive: true, force: true })
      await rm(workspace, { recursive: true, force: true })
    }
  })
})

describe('a client that cannot rewrite (--no-rewrite): the agent runs the command itself', {
  timeout: 120_000,
}, () => {
  it("its card says the agent's own shell, unsandboxed; the history shows each call's outcome", async () => {
    hub = await startTestHub()
    const testHub = hub
    const { env, workspace } = testHub
    const asked = hookProcess('claude-code', claudeInput('touch mine', workspace), env, ['--no-rewrite'])
    const card = await waitFor(() => testHub.host.core.approvals.list()[0], 'the card')
    expect(card.sandbox).toMatchObject({ profile: 'agent-shell', unsandboxedAllowed: false })
    expect(card.sandbox?.note).toMatch(/agent's own shell, unsandboxed/)
    await testHub.ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    const answer = (await asked) as ClaudeAnswer
    expect(answer.hookSpecificOutput).toMatchObject({ permissionDecision: 'allow' })
    expect(answer.hookSpecificOutput.updatedInput).toBeUndefined()
    const denying = hookProcess('claude-code', claudeInput('touch theirs', workspace), env, ['--no-rewrite'])
    const second = await waitFor(() => testHub.host.core.approvals.list()[0], 'the second card')
    await testHub.ui.request('approvals.answer', {
      id: second.id,
      answer: { kind: 'deny', message: 'not that' },
    })
    await denying
    const history = await testHub.ui.request('bash.history', { sessionId: card.sessionId })
    expect(history.map((call) => [call.command, call.status])).toEqual([
      ['touch mine', 'run_by_agent'],
      ['touch theirs', 'denied'],
    ])
    expect(history[1]?.content).toBe('not that')
    expect(existsSync(join(workspace, 'mine'))).toBe(false)
  })
})
