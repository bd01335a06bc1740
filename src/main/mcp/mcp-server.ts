import type { Readable, Writable } from 'node:stream'
import type { TypedClient } from '../../shared/ipc/client'
import type { ShellgateContract } from '../../shared/ipc/contract'
import { APP_VERSION } from '../core/version'
import type { AgentLink } from './agent-link'
import { boundedLines, MAX_MCP_LINE_BYTES } from './bounded-lines'
import { createAgentSession } from './agent-session'
import { type McpServerHandle, startMcpStdioServer } from './sdk/stdio-server'
import { bashTool } from './tools/bash-tool'
import { checkCommandTool } from './tools/check-command-tool'
import { listTasksTool } from './tools/list-tasks-tool'
import { taskInputTool } from './tools/task-input-tool'
import { taskOutputTool } from './tools/task-output-tool'
import { taskStopTool } from './tools/task-stop-tool'

export interface McpServerOptions {
  client: TypedClient<ShellgateContract>
  stdin: Readable
  stdout: Writable
  log: (line: string) => void
  workspace: string
  label: string | null
  deadlineMs: number
}

const INSTRUCTIONS = [
  "Shellgate runs your shell commands on the user's machine, with the user's approval.",
  'Use its bash tool for shell commands; read-only commands run at once, others wait for the person in the Shellgate window.',
  'Long commands continue as background tasks: use task_output to wait for them and task_stop to end them. check_command says what would happen without running anything.',
  'For prompts and REPLs run bash with tty: true and type with task_input; for dev servers use wait_for (a pattern or port:N).',
].join(' ')

/** `shellgate mcp`: the six tools over stdio, each call an agent-role request to the hub. */
export async function startMcpServer(options: McpServerOptions): Promise<McpServerHandle> {
  let server: McpServerHandle | null = null
  const session = createAgentSession({
    client: options.client,
    clientFacts: () => server?.client() ?? null,
    listRoots: (timeoutMs) => server?.listRoots(timeoutMs) ?? Promise.resolve([]),
    fallbackWorkspace: options.workspace,
    label: options.label,
  })
  const link: AgentLink = {
    client: options.client,
    session: () => session.id(),
    deadlineMs: options.deadlineMs,
  }
  const stdin = options.stdin.pipe(
    boundedLines(MAX_MCP_LINE_BYTES, (bytes) =>
      options.log(
        `shellgate mcp: dropped a message of ${bytes} bytes (over ${MAX_MCP_LINE_BYTES}); it was not read`,
      ),
    ),
  )
  // stdin closed without an end (the client was killed) still ends the stream the SDK reads.
  options.stdin.once('close', () => {
    if (!stdin.writableEnded) stdin.end()
  })
  server = await startMcpStdioServer({
    info: { name: 'shellgate', version: APP_VERSION },
    instructions: INSTRUCTIONS,
    tools: [
      bashTool(link),
      taskOutputTool(link),
      taskInputTool(link),
      taskStopTool(link),
      listTasksTool(link),
      checkCommandTool(link),
    ],
    stdin,
    stdout: options.stdout,
    log: options.log,
  })
  return server
}
