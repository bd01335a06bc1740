import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeCodeHook } from '../../../src/main/mcp/hooks/claude-code-hook'
import { codexHook } from '../../../src/main/mcp/hooks/codex-hook'
import { geminiHook } from '../../../src/main/mcp/hooks/gemini-hook'
import type { HookClient } from '../../../src/main/mcp/hooks/hook-client'
import { answerHook } from '../../../src/main/mcp/hooks/run-hook'
import { waitFor } from '../core/workbench/core-harness'
import { startTestHub, type TestHub } from './test-hub'

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

function ask(client: HookClient, input: unknown, env: Record<string, string>, rewrite: boolean) {
  return answerHook(client, {
    stdin: Readable.from([Buffer.from(JSON.stringify(input))]),
    env,
    stderr: () => undefined,
    rewrite,
  })
}

const claude = (cwd: string, command: string) => ({
  session_id: 'claude-unsandboxed',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
})

const codex = (cwd: string, toolName: string, toolInput: Record<string, unknown>) => ({
  session_id: 'codex-unsandboxed',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: toolName,
  tool_input: toolInput,
})

describe('a client that cannot hand the command to Shellgate gets the unsandboxed verdict (issue 20.2)', () => {
  it("asks for what only the sandbox made safe, and the card says it runs in the agent's own shell", async () => {
    hub = await startTestHub()
    const { env, workspace, ui } = hub
    await writeFile(join(workspace, '.env'), 'STRIPE=sk_live_123\n')
    // Handed to Shellgate (a ticket), a plain read runs at once in the read-only sandbox.
    const sandboxed = await ask(claudeCodeHook, claude(workspace, 'ls -la'), env, true)
    expect(sandboxed).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } })
    expect(JSON.stringify(sandboxed)).toContain(' ticket ')

    for (const command of ['grep -rn sk_live .', 'echo "\x24{AWS_SECRET_ACCESS_KEY}"', 'git log -1']) {
      const answer = ask(claudeCodeHook, claude(workspace, command), env, false)
      const card = await waitFor(() => hub?.host.core.approvals.list()[0], `the card for ${command}`)
      expect(card.command).toBe(command)
      expect(card.sandbox?.profile).toBe('agent-shell')
      expect(card.sandbox?.note).toMatch(/runs in the agent's own shell, unsandboxed/)
      await ui.request('approvals.answer', {
        id: card.id,
        answer: { kind: 'deny', message: 'not unsandboxed' },
      })
      expect(await answer).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'not unsandboxed' },
      })
    }
    // What needs neither still runs without a question, in the agent's shell.
    expect(await ask(claudeCodeHook, claude(workspace, 'ls -la'), env, false)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'allow' },
    })
    // A bare cd is left to the agent's shell, where it moves something; a ticket would not.
    await mkdir(join(workspace, 'sub'))
    const moved = (await ask(claudeCodeHook, claude(workspace, 'cd sub'), env, true)) as {
      hookSpecificOutput: Record<string, unknown>
    }
    expect(moved.hookSpecificOutput.permissionDecision).toBe('allow')
    expect(moved.hookSpecificOutput.updatedInput).toBeUndefined()
  })

  it('codex: write_stdin feeds a shell (asked, never handed to Shellgate), an empty one only reads, exec_command with tty is never read-only', async () => {
    hub = await startTestHub()
    const { env, workspace, ui } = hub
    const quick = { ...env, SHELLGATE_HOOK_WAIT_MS: '60000' }
    expect(
      await ask(codexHook, codex(workspace, 'write_stdin', { session_id: 3, chars: '' }), quick, true),
    ).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'allow' },
    })
    const typed = ask(
      codexHook,
      codex(workspace, 'write_stdin', { session_id: 3, chars: 'ls\n' }),
      quick,
      true,
    )
    const card = await waitFor(() => hub?.host.core.approvals.list()[0], 'the write_stdin card')
    expect(card.description).toMatch(/typed into terminal session 3/)
    expect(card.sandbox?.profile).toBe('agent-shell')
    await ui.request('approvals.answer', { id: card.id, answer: { kind: 'allow_once' } })
    const allowed = (await typed) as { hookSpecificOutput: Record<string, unknown> }
    // Allowed, but typed as it was: it cannot become a ticket.
    expect(allowed.hookSpecificOutput.permissionDecision).toBe('allow')
    expect(allowed.hookSpecificOutput.updatedInput).toBeUndefined()

    const tty = ask(codexHook, codex(workspace, 'exec_command', { cmd: 'ls', tty: true }), quick, false)
    const ttyCard = await waitFor(() => hub?.host.core.approvals.list()[0], 'the tty card')
    expect(ttyCard.command).toBe('ls')
    await ui.request('approvals.answer', { id: ttyCard.id, answer: { kind: 'deny', message: 'no terminal' } })
    expect(await tty).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } })
    // Without a tty, exec_command's cmd is rewritten to a ticket in the field it came in.
    const plain = (await ask(codexHook, codex(workspace, 'exec_command', { cmd: 'ls' }), quick, true)) as {
      hookSpecificOutput: { updatedInput: { cmd: string } }
    }
    expect(plain.hookSpecificOutput.updatedInput.cmd).toMatch(/ ticket /)
  })

  it('a tool that looks like a shell and is not known gets the undecided answer, never "no opinion"', async () => {
    hub = await startTestHub()
    const { env, workspace } = hub
    expect(
      await ask(codexHook, codex(workspace, 'run_in_terminal', { command: 'rm -rf x' }), env, true),
    ).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringMatching(
          /run_in_terminal looks like a tool that starts or feeds a shell/,
        ),
      },
    })
    expect(
      await ask(claudeCodeHook, { ...claude(workspace, 'x'), tool_name: 'PowerShell' }, env, true),
    ).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'ask' },
    })
    expect(
      await ask(
        geminiHook,
        {
          ...claude(workspace, 'x'),
          hook_event_name: 'BeforeTool',
          tool_name: 'run_script',
          tool_input: { script: 'x' },
        },
        env,
        true,
      ),
    ).toMatchObject({ decision: 'deny' })
    // Known tools and MCP tools (Shellgate's own bash included) stay the client's business.
    expect(await ask(claudeCodeHook, { ...claude(workspace, 'x'), tool_name: 'Read' }, env, true)).toEqual({})
    expect(
      await ask(claudeCodeHook, { ...claude(workspace, 'x'), tool_name: 'mcp__shellgate__bash' }, env, true),
    ).toEqual({})
    expect(await ask(codexHook, codex(workspace, 'apply_patch', { command: 'x' }), env, true)).toEqual({})
  })
})
