import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { codexHook } from '../../../src/main/mcp/hooks/codex-hook'
import { geminiHook } from '../../../src/main/mcp/hooks/gemini-hook'
import type { HookClient } from '../../../src/main/mcp/hooks/hook-client'
import { answerHook } from '../../../src/main/mcp/hooks/run-hook'
import { waitFor } from '../core/workbench/core-harness'
import { startTestHub, type TestHub } from './test-hub'

// The hook is asked about a command the agent then runs itself. Whatever Shellgate classifies and
// shows on the card must be what really runs, or a read-only verdict covers something else.

let hub: TestHub | null = null
afterEach(async () => {
  await hub?.dispose()
  hub = null
})

function ask(client: HookClient, input: unknown, env: Record<string, string>) {
  // The decision as a client that cannot rewrite gets it; the rewrite has its own tests (hook-tickets).
  return answerHook(client, {
    stdin: Readable.from([Buffer.from(JSON.stringify(input))]),
    env,
    stderr: () => undefined,
    rewrite: false,
  })
}

const codexInput = (cwd: string, toolInput: Record<string, unknown>) => ({
  session_id: 'codex-fidelity',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'shell',
  tool_input: toolInput,
})

const geminiInput = (cwd: string, toolInput: Record<string, unknown>) => ({
  session_id: 'gemini-fidelity',
  cwd,
  hook_event_name: 'BeforeTool',
  tool_name: 'run_shell_command',
  tool_input: toolInput,
})

/** The argv real bash reads back from a command line. */
function argvBashReads(commandLine: string): string[] {
  const result = spawnSync('bash', ['-c', `set -- ${commandLine}; printf '%s\\0' "$@"`], { encoding: 'utf8' })
  expect(result.status).toBe(0)
  return result.stdout.split('\0').slice(0, -1)
}

/** A card the hook raised, once it is up (the hook keeps waiting for the person meanwhile). */
async function cardFor(testHub: TestHub) {
  return waitFor(() => testHub.host.core.approvals.list()[0], 'the approval card')
}

describe('the command a hook asks about is the one the agent runs', () => {
  it('an argv is quoted word for word: ["find", ".", "#", "-delete"] is not read as `find .` and a comment', async () => {
    hub = await startTestHub()
    const { workspace, env } = hub
    await writeFile(join(workspace, 'keep-me'), 'precious')
    const argv = ['find', '.', '#', '-delete']
    // What Codex would run (execvp, no shell) deletes the whole workspace:
    const scratch = join(workspace, 'scratch')
    await mkdir(scratch)
    await writeFile(join(scratch, 'gone'), 'x')
    spawnSync(argv[0] as string, argv.slice(1), { cwd: scratch })
    expect(spawnSync('ls', ['-A', scratch], { encoding: 'utf8' }).stdout).toBe('')

    const answer = ask(codexHook, codexInput(workspace, { command: argv }), {
      ...env,
      SHELLGATE_HOOK_WAIT_MS: '60000',
    })
    const card = await cardFor(hub)
    expect(card.command).toBe("find . '#' -delete")
    expect(argvBashReads(card.command)).toEqual(argv)
    await hub.ui.request('approvals.answer', { id: card.id, answer: { kind: 'deny', message: 'no' } })
    expect(await answer).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    })
  })

  it('every argv word survives bash exactly, and `bash -lc SCRIPT` is asked about as SCRIPT', async () => {
    hub = await startTestHub()
    const { workspace, env } = hub
    const argvs = [
      ['X=1', 'ls'],
      [
        'ls',
        'a b',
        "it's",
        '$(id)',
        '`id`',
        '~',
        '*',
        '',
        'tab\there',
        'line\nbreak',
        ';',
        '&&',
        '|',
        '>out',
      ],
    ]
    for (const argv of argvs) {
      const answer = ask(codexHook, codexInput(workspace, { command: argv }), {
        ...env,
        SHELLGATE_HOOK_WAIT_MS: '60000',
      })
      const card = await cardFor(hub)
      expect(argvBashReads(card.command)).toEqual(argv)
      await hub.ui.request('approvals.answer', { id: card.id, answer: { kind: 'deny', message: 'no' } })
      await answer
    }
    // Codex's usual form: the script is what runs, and a read-only one needs nobody.
    expect(await ask(codexHook, codexInput(workspace, { command: ['bash', '-lc', 'ls -la'] }), env)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: expect.stringMatching(/^Shellgate: /),
      },
    })
  })

  it("a tool's own working directory is where the verdict looks: git diff in a repository with diff.external asks", async () => {
    hub = await startTestHub()
    const { workspace, env } = hub
    // Another repository whose config runs a program on `git diff`.
    const evil = join(workspace, 'vendor', 'evil')
    await mkdir(evil, { recursive: true })
    expect(spawnSync('git', ['init', '-q', evil]).status).toBe(0)
    expect(spawnSync('git', ['-C', evil, 'config', 'diff.external', join(evil, 'pwn.sh')]).status).toBe(0)
    // In the workspace itself `git diff` only reads (without a pager: this client runs it itself):
    expect(await ask(geminiHook, geminiInput(workspace, { command: 'git --no-pager diff' }), env)).toEqual({
      decision: 'allow',
      reason: expect.stringMatching(/^Shellgate: /),
    })

    const cases: Array<[HookClient, unknown, (reason: string) => unknown]> = [
      [
        geminiHook,
        geminiInput(workspace, { command: 'git diff', dir_path: 'vendor/evil' }),
        (reason) => ({ decision: 'deny', reason }),
      ],
      [
        geminiHook,
        geminiInput(workspace, { command: 'git diff', directory: 'vendor/evil' }),
        (reason) => ({ decision: 'deny', reason }),
      ],
      [
        codexHook,
        codexInput(workspace, { command: ['git', 'diff'], workdir: evil }),
        (reason) => ({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: reason,
          },
        }),
      ],
    ]
    for (const [client, input, denied] of cases) {
      const answer = ask(client, input, { ...env, SHELLGATE_HOOK_WAIT_MS: '60000' })
      const card = await cardFor(hub)
      expect(card.command).toBe(`cd '${evil}' && git diff`)
      expect(JSON.stringify(card.why)).toMatch(/diff\.external/)
      await hub.ui.request('approvals.answer', {
        id: card.id,
        answer: { kind: 'deny', message: 'not there' },
      })
      expect(await answer).toEqual(denied('not there'))
    }
  })

  it('a working directory that is not a string, or two different ones, is refused before any hub is asked', async () => {
    hub = await startTestHub()
    const { workspace, env } = hub
    expect(await ask(geminiHook, geminiInput(workspace, { command: 'ls', dir_path: ['/'] }), env)).toEqual({
      decision: 'deny',
      reason: expect.stringMatching(/tool_input\.dir_path is not a string/),
    })
    expect(
      await ask(geminiHook, geminiInput(workspace, { command: 'ls', dir_path: 'a', directory: 'b' }), env),
    ).toEqual({ decision: 'deny', reason: expect.stringMatching(/two working directories/) })
    // The same folder named twice, or cwd itself, is no change at all.
    expect(
      await ask(
        geminiHook,
        geminiInput(workspace, { command: 'ls', dir_path: '.', directory: workspace }),
        env,
      ),
    ).toEqual({ decision: 'allow', reason: expect.stringMatching(/^Shellgate: /) })
    expect(hub.host.core.approvals.list()).toEqual([])
  })
})
