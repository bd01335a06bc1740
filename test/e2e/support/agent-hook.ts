import { execFile, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import type { ServeProcess } from './browser-mode-server'

const run = promisify(execFile)

export interface ClaudeHookAnswer {
  hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } }
}

/** The environment a hook and the client's shell tool get: the served hub's home, nothing else of ours. */
export function hookEnv(serve: ServeProcess): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: serve.home,
    SHELLGATE_HOME: serve.home,
    SHELLGATE_NO_OPEN: '1',
  }
}

/**
 * `shellgate hook claude-code` as Claude Code runs it before its Bash tool: its own process, the
 * PreToolUse JSON on stdin; resolves with what the hook printed once the person decided.
 */
export function claudeCodeHook(
  serve: ServeProcess,
  question: { sessionId: string; cwd: string; command: string; description: string },
): Promise<ClaudeHookAnswer> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve('bin/shellgate.js'), 'hook', 'claude-code'], {
      env: hookEnv(serve),
      cwd: question.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    child.on('error', fail)
    child.on('close', () => {
      try {
        done(JSON.parse(stdout) as ClaudeHookAnswer)
      } catch {
        fail(new Error(`the hook printed no JSON: ${stdout} ${stderr}`))
      }
    })
    child.stdin.end(
      JSON.stringify({
        session_id: question.sessionId,
        cwd: question.cwd,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: question.command, description: question.description },
      }),
    )
  })
}

/** Runs the command the hook answered as Claude Code's Bash tool would: `bash -c` in the folder. */
export async function clientShellTool(serve: ServeProcess, command: string, cwd: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', command], { cwd, env: hookEnv(serve), timeout: 30_000 })
  return stdout
}
