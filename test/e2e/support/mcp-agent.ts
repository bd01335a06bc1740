import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { ServeProcess } from './browser-mode-server'

export interface ToolAnswer {
  text: string
  isError: boolean
  structured: Record<string, unknown> | undefined
}

export interface McpAgent {
  name: string
  workspace: string
  /** One `bash` tool call; resolves with the text the model would receive. */
  bash(command: string): Promise<{ text: string; isError: boolean }>
  /** Any tool call, with the structured content beside the text. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer>
  close(): Promise<void>
}

export interface McpAgentOptions {
  name: string
  version: string
  folder: string
  /** Extra environment the client gives its server (Claude Code's CLAUDE_CODE_SESSION_ID). */
  env?: Record<string, string>
  /** SHELLGATE_MCP_DEADLINE_MS: when a call still waiting for the person answers "task T". */
  deadlineMs?: number
  /**
   * Start `shellgate mcp` under a process of its own, as each run of a real agent does: without it
   * every server is a child of this test process, and the hub takes them for one agent run.
   */
  ownProcess?: boolean
}

/** A parent that only starts the server and passes its exit on: the stand-in for the agent's process. */
const OWN_PROCESS = [
  '-e',
  "const c=require('node:child_process').spawn(process.execPath,process.argv.slice(1),{stdio:'inherit'});c.on('exit',(code)=>process.exit(code??1));process.on('SIGTERM',()=>c.kill('SIGTERM'))",
  '--',
]

/**
 * A real MCP client (the SDK's own) naming itself `name version`, running the built
 * `shellgate mcp` in its own workspace (a folder under the served one), as an agent would.
 */
export async function startMcpAgent(serve: ServeProcess, options: McpAgentOptions): Promise<McpAgent> {
  const workspace = join(serve.workspace, options.folder)
  await mkdir(workspace, { recursive: true })
  const serverArgs = [resolve('bin/shellgate.js'), 'mcp', '--workspace', workspace]
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: options.ownProcess ? [...OWN_PROCESS, ...serverArgs] : serverArgs,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: serve.home,
      SHELLGATE_HOME: serve.home,
      SHELLGATE_NO_OPEN: '1',
      SHELLGATE_MCP_DEADLINE_MS: String(options.deadlineMs ?? 40_000),
      ...options.env,
    },
    cwd: workspace,
    stderr: 'pipe',
  })
  const client = new Client({ name: options.name, version: options.version })
  await client.connect(transport)
  const callTool = async (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 50_000 })
    const text = (result.content as Array<{ type: string; text?: string }>)
      .map((item) => item.text ?? '')
      .join('\n')
    const structured = result.structuredContent as Record<string, unknown> | undefined
    return { text, isError: result.isError === true, structured }
  }
  return {
    name: `${options.name} ${options.version}`,
    workspace,
    async bash(command) {
      const { text, isError } = await callTool('bash', { command })
      return { text, isError }
    },
    callTool,
    close: () => client.close(),
  }
}
