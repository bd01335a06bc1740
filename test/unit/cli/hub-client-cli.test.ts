import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hookProcess } from '../mcp/hook-process'
import { startTestHub, type TestHub, TSX_LOADER } from '../mcp/test-hub'

/**
 * The entry bin/shellgate.js gives `hook`, `ticket` and `exec` (src/main/hub-client-cli.ts, one
 * CommonJS bundle when built): the same answers as the CLI, with stdin read by plain system calls.
 * Run here from source, in its own process, as bin/shellgate.js runs it.
 */
const ENTRY = resolve('src/main/hub-client-cli.ts')

function runEntry(
  call: string,
  env: Record<string, string>,
  stdin: { text: string } | 'none',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `const entry = await import(${JSON.stringify(ENTRY)}); const code = await entry.${call}; process.stdout.write('\\nEXIT ' + code)`
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], {
      env,
      cwd: env.SG_CWD,
      stdio: [stdin === 'none' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
    // A large input is written in pieces the entry must gather (a pipe holds 64 KiB).
    if (stdin !== 'none') child.stdin?.end(stdin.text)
  })
}

let hub: TestHub
beforeAll(async () => {
  hub = await startTestHub()
})
afterAll(() => hub.dispose())

const hookInput = (command: string) => ({
  session_id: 'entry-test',
  cwd: hub.workspace,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
})

describe('the hub-client entry (issue 20.6)', () => {
  it('answers a hook from a pipe exactly as the CLI does; too much input or none is refused', {
    timeout: 60_000,
  }, async () => {
    const env = { ...hub.env, SG_CWD: hub.workspace }
    const viaCli = (await hookProcess('codex', hookInput('shellgate ui'), hub.env, ['--no-rewrite'])) as {
      hookSpecificOutput: Record<string, unknown>
    }
    const viaEntry = await runEntry(
      `runHookCli(['codex', '--no-rewrite'])`,
      { ...env, SHELLGATE_HOOK_WAIT_MS: '1000' },
      { text: JSON.stringify(hookInput('shellgate ui')) },
    )
    const [json, exit] = viaEntry.stdout.split('\nEXIT ')
    expect(exit).toBe('0')
    expect(JSON.parse(json ?? '')).toEqual(viaCli)
    expect(viaCli.hookSpecificOutput.permissionDecision).toBe('deny')

    const allowed = await runEntry(`runHookCli(['claude-code', '--no-rewrite'])`, env, {
      text: JSON.stringify(hookInput('ls')),
    })
    expect(JSON.parse(allowed.stdout.split('\nEXIT ')[0] ?? '').hookSpecificOutput.permissionDecision).toBe(
      'allow',
    )

    // Over 1 MiB, gathered from many pipe reads: refused with the reason, not cut and parsed.
    const huge = JSON.stringify({ ...hookInput('ls'), padding: 'x'.repeat(1024 * 1024) })
    const tooMuch = await runEntry(`runHookCli(['codex'])`, env, { text: huge })
    expect(tooMuch.stdout).toContain('"permissionDecision":"deny"')
    expect(tooMuch.stdout).toContain('over 1048576 bytes or no stdin')
    const none = await runEntry(`runHookCli(['gemini'])`, env, 'none')
    expect(none.stdout).toContain('"decision":"deny"')
    expect(none.stdout).toContain('over 1048576 bytes or no stdin')

    const usage = await runEntry(`runHookCli(['nope'])`, env, 'none')
    expect(usage.stdout).toContain('EXIT 2')
    expect(usage.stderr).toContain('expected one of claude-code, codex, gemini')
  })

  it('exec runs through the hub; with no hub it hands the run to the full CLI, and ticket refuses', {
    timeout: 60_000,
  }, async () => {
    const viaHub = await runEntry(
      `runHubClientCommand('exec', ['--', 'cat notes-from-entry.txt'])`,
      { ...hub.env, SG_CWD: hub.workspace },
      'none',
    )
    // Run by the hub: its audit log has the command (a local run would write none there).
    expect(viaHub.stdout).toMatch(/EXIT \d+$/)
    const audit = await readFile(join(hub.home, 'audit.jsonl'), 'utf8')
    expect(audit).toContain('cat notes-from-entry.txt')
    const noHubHome = { ...hub.env, SHELLGATE_HOME: `${hub.workspace}/no-hub-here`, SG_CWD: hub.workspace }
    const handedOver = await runEntry(`runHubClientCommand('exec', ['--', 'true'])`, noHubHome, 'none')
    expect(handedOver.stdout).toBe('\nEXIT null')
    const ticket = await runEntry(
      `runHubClientCommand('ticket', ['sgt_${'a'.repeat(43)}'])`,
      noHubHome,
      'none',
    )
    expect(ticket.stderr).toContain('Shellgate is not running')
  })
})
